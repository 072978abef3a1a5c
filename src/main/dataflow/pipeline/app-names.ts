// The LibreOffice module names of the dataflow apps, as prompts name them.
import type { OfficeApp } from './task';

export const APP_NAMES: Readonly<Record<OfficeApp, string>> = {
  writer: 'LibreOffice Writer on Linux',
  calc: 'LibreOffice Calc on Linux',
  impress: 'LibreOffice Impress on Linux',
};

/** Document extensions each app's templates may have. */
export const APP_EXTENSIONS: Readonly<Record<OfficeApp, string[]>> = {
  writer: ['.odt', '.docx', '.doc', '.rtf', '.fodt'],
  calc: ['.xlsx', '.ods', '.xls', '.fods'],
  impress: ['.odp', '.pptx', '.ppt', '.fodp'],
};
