// The departures of the Python pattern layer, listed under every metric that takes a task's `re` patterns.
import { registerDeparture } from '../profile';

/** Metrics whose rules hold Python `re` patterns (through rule-match.ts or compilePython directly). */
export const patternMetrics = [
  'check_json',
  'check_list',
  'compare_table',
  'is_expected_url_pattern_match',
  'is_expected_search_query',
  'check_thunderbird_prefs',
  'check_mp3_meta',
];

for (const metric of patternMetrics) {
  registerDeparture({
    metric,
    profile: 'all',
    case: 'patterns Python accepts that the pattern layer refuses',
    why: 'Python runs (?(1)…), \\N{…}, backreferences to a group that may not take part, in a lookbehind, in a partly case-insensitive pattern or under (?ai), and repeats of an empty-matching part; Proctor refuses them: a grading error naming the pattern, never a verdict',
  });
  registerDeparture({
    metric,
    profile: 'all',
    case: 'characters new since Unicode 14 in \\w \\d \\s \\b and IGNORECASE',
    why: "Python 3.11 uses Unicode 14 tables, Proctor Node's newer ICU ones: a character added since (e.g. U+1E4D0) is \\w here and not in Python",
  });
}
