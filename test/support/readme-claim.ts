// A test that backs a sentence of the README names it: `readmeClaim(text)`
// returns the test's title and fails at once (before any test runs) when the
// README no longer says `text`, so a claim cannot be reworded or dropped
// without its test being looked at, and a test cannot cite a claim the README
// never made. Whitespace and line breaks are compared loosely.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
const flatReadme = flat(readme);

/** The title of the test that shows the README's sentence `text`; throws if the README does not say it. */
export function readmeClaim(text: string): string {
  if (!flatReadme.includes(flat(text))) throw new Error(`the README no longer says: ${JSON.stringify(text)}`);
  return `README: "${flat(text)}"`;
}
