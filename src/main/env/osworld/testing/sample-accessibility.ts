// TEST DATA: an accessibility answer in the shape OSWorld's server writes on Ubuntu (lxml, one line, the
// desktop-frame root declaring the st/attr/cp/doc/docattr/txt/val/act namespaces; role names with hyphens;
// states and AT-SPI attributes as namespaced attributes; the box only on visible, showing nodes). Written
// for these tests from the documented shape; no content of a real guest.
const NS =
  'xmlns:st="https://accessibility.ubuntu.example.org/ns/state" ' +
  'xmlns:attr="https://accessibility.ubuntu.example.org/ns/attributes" ' +
  'xmlns:cp="https://accessibility.ubuntu.example.org/ns/component" ' +
  'xmlns:doc="https://accessibility.ubuntu.example.org/ns/document" ' +
  'xmlns:docattr="https://accessibility.ubuntu.example.org/ns/document/attributes" ' +
  'xmlns:txt="https://accessibility.ubuntu.example.org/ns/text" ' +
  'xmlns:val="https://accessibility.ubuntu.example.org/ns/value" ' +
  'xmlns:act="https://accessibility.ubuntu.example.org/ns/action"';

export const SAMPLE_ACCESSIBILITY_XML = [
  `<desktop-frame ${NS}>`,
  '<application name="gnome-shell" st:enabled="true" st:sensitive="true" attr:toolkit="GJS">',
  '<window name="" st:enabled="true" st:visible="true" st:showing="true" cp:screencoord="(0, 0)" cp:size="(1920, 1080)">',
  '<panel name="Top Bar" st:visible="true" st:showing="true" st:enabled="true" cp:screencoord="(0, 0)" cp:size="(1920, 32)">',
  '<push-button name="Activities" st:focusable="true" st:visible="true" st:showing="true" st:enabled="true" st:has_tooltip="true" ',
  'cp:screencoord="(0, 0)" cp:size="(102, 32)" act:press_desc="" act:press_kb="">Activities</push-button>',
  '<label name="" st:visible="true" st:showing="true" cp:screencoord="(860, 6)" cp:size="(200, 20)">Jun 7  10:21</label>',
  '</panel></window></application>',
  '<application name="soffice" st:enabled="true">',
  '<frame name="Untitled 1 - LibreOffice Calc" st:active="true" st:visible="true" st:showing="true" st:resizable="true" ',
  'attr:class="libreoffice-calc" cp:screencoord="(70, 64)" cp:size="(1850, 1016)">',
  '<menu-bar name="Menu Bar" st:visible="true" st:showing="true" cp:screencoord="(70, 64)" cp:size="(1850, 24)">',
  '<menu name="File" st:visible="true" st:showing="true" st:selectable="true" cp:screencoord="(70, 64)" cp:size="(36, 24)"/>',
  '<menu name="Hidden menu" st:visible="true"/>',
  '</menu-bar>',
  '<combo-box name="Name Box" st:visible="true" st:showing="true" st:editable="true" st:focused="true" attr:description="Enter a cell reference" ',
  'cp:screencoord="(75, 150)" cp:size="(120, 26)">A1</combo-box>',
  '<table-cell name="B2" st:visible="true" st:showing="true" st:selectable="true" st:multi_line="false" val:value="42.0" ',
  'cp:screencoord="(171, 213)" cp:size="(81, 18)">42 &amp; &lt;more&gt; \ufffc</table-cell>',
  '<spin-button name="Zoom" st:visible="true" st:showing="true" val:value="100.0" val:min="20.0" val:max="600.0" val:step="1.0" ',
  'cp:screencoord="(1800, 1050)" cp:size="(60, 20)"/>',
  '</frame></application>',
  '</desktop-frame>',
].join('');
