// The departures of the Python pattern layer, listed under every metric that takes a task's `re` patterns.
import { registerDeparture } from '../profile';

/** Metrics whose rules hold Python `re` patterns (through rule-match.ts or compilePython directly). */
export const patternMetrics = ['check_json', 'check_list', 'compare_table', 'is_expected_url_pattern_match', 'is_expected_search_query', 'check_thunderbird_prefs', 'check_mp3_meta'];

for (const metric of patternMetrics) {
  registerDeparture({
    metric,
    profile: 'all',
    case: 'patterns Python accepts that the pattern layer refuses',
    why: "Python runs conditional groups (?(1)…), \\N{name}, a backreference to a group that may not take part, in a partly case-insensitive pattern, in a lookbehind or under (?ai), and repeats of a part that can match empty; Proctor refuses them: a grading error naming the pattern, never a verdict",
  });
  registerDeparture({
    metric,
    profile: 'all',
    case: 'characters new since Unicode 14 in \\w \\d \\s \\b and IGNORECASE',
    why: "Python 3.11 classifies and folds characters by Unicode 14; Proctor by Node's ICU tables (newer): a letter or digit added since (e.g. U+1E4D0, Nag Mundari) is \\w here and not in Python",
  });
}
