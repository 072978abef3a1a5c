import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';
import { hasLibreOffice, saveManyWithLibreOffice } from '../testing/libreoffice';

const tmp = tempDir();
afterAll(tmp.cleanup);

const cities = [
  'Vienna',
  'Seoul',
  'Honolulu',
  'New Orleans',
  'Singapore',
  'Kigali',
  'Vancouver',
  'Long Beach',
  'Montreal',
  'Paris',
  'Sydney',
  'Dublin',
  'Toronto',
  'Berlin',
  'Barcelona',
  'Lisbon',
  'Tokyo',
  'Prague',
  'Oslo',
  'Madrid',
  'Rome',
];
const sheet = (rows: string[]) =>
  `<!doctype html><html><body><table><tr><td>Conference</td><td>Year</td><td>City</td></tr>${rows.map((c, i) => `<tr><td>Conf ${i + 1}</td><td>${2000 + i}</td><td>${c}</td></tr>`).join('')}</table></body></html>`;

describe.skipIf(!hasLibreOffice)('compare_conference_city_in_order on a workbook LibreOffice saved', () => {
  let f: Record<string, string> = {};
  beforeAll(() => {
    f = saveManyWithLibreOffice(
      tmp.dir,
      {
        inOrder: sheet(cities.map((c) => `${c}, Country`)),
        swapped: sheet([cities[1], cities[0], ...cities.slice(2)]),
        short: sheet(cities.slice(0, 20)),
      },
      'xlsx',
    );
  }, 120_000);

  it('is in the sheets family', () =>
    expect(metricFamilyOf('compare_conference_city_in_order')).toBe('sheets'));

  it('each of C2:C22 contains its city (or an alternative): 1', async () => {
    expect((await runMetric('compare_conference_city_in_order', f.inOrder, { expected: cities })).score).toBe(
      1,
    );
    const alternatives = [['Wien', 'Vienna'], ...cities.slice(1)];
    expect(
      (await runMetric('compare_conference_city_in_order', f.inOrder, { expected: alternatives })).score,
    ).toBe(1);
  });

  it('a city out of order, an empty cell or too few expected cities: 0', async () => {
    expect((await runMetric('compare_conference_city_in_order', f.swapped, { expected: cities })).score).toBe(
      0,
    );
    const empty = await runMetric('compare_conference_city_in_order', f.short, { expected: cities });
    expect(empty.score).toBe(0);
    expect(empty.reason).toMatch(/C22 holds nothing/);
    expect(
      (await runMetric('compare_conference_city_in_order', f.inOrder, { expected: cities.slice(0, 20) }))
        .score,
    ).toBe(0);
    expect(
      (
        await runMetric('compare_conference_city_in_order', f.inOrder, {
          expected: [['Wien', 'Wenen'], ...cities.slice(1)],
        })
      ).score,
    ).toBe(0);
  });
});
