// YAML as OSWorld's check_json (is_yaml) reads it with PyYAML's yaml.safe_load: YAML 1.1 (yes/on are True, y and n
// text, 010 octal, 0o17 text), floats kept as Python floats (5.0 prints '5.0'), an exponent only with a dot and a sign.
import { isScalar, parse, type ScalarTag, type Tags } from 'yaml';
import { PyFloat } from './value';

const FLOAT = 'tag:yaml.org,2002:float';
/** PyYAML's float with an exponent: `1.0e+3` (a dot and a signed exponent); `1e3` and `1.0e3` stay text. */
const PYYAML_EXP = /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*[eE][-+][0-9]+$/;

const BOOL = 'tag:yaml.org,2002:bool';
/** PyYAML's booleans: y, Y, n and N are text (YAML 1.1's spec lists them; PyYAML does not). */
const PYYAML_TRUE = /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/;
const PYYAML_FALSE = /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/;

function pythonTags(tags: Tags): Tags {
  return tags.map((t) => {
    const tag = t as ScalarTag;
    if (tag.tag === BOOL && tag.test)
      return { ...tag, test: tag.test.test('yes') ? PYYAML_TRUE : PYYAML_FALSE };
    if (tag.tag !== FLOAT || !tag.resolve) return t;
    const resolve = tag.resolve.bind(tag);
    const floatOf: ScalarTag['resolve'] = (str, onError, options) => {
      const v = resolve(str, onError, options);
      return new PyFloat(Number(isScalar(v) ? v.value : v)) as unknown as ReturnType<ScalarTag['resolve']>;
    };
    return { ...tag, ...(tag.format === 'EXP' ? { test: PYYAML_EXP } : {}), resolve: floatOf };
  });
}

/** PyYAML's `yaml.safe_load(text)`; throws where the text is no YAML. */
export function pyYamlLoad(text: string): unknown {
  return parse(text, { version: '1.1', customTags: pythonTags });
}
