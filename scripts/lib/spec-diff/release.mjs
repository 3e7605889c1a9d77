// The released baseline of each API, kept in the repository as
// openapi/releases/<api>.yaml: the bundle exactly as released, under a
// two-line header. The gate compares with this file rather than with a git
// tag, so it bites the same in a clone without tags or history; a change to
// a release file shows in review like any other change.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { parseVersion } from './gate.mjs';

export const releasePath = (api) => `openapi/releases/${api}.yaml`;

/** The header over the bundle: which API and version, and how the file is made. */
export function releaseHeader(api, version) {
  return (
    `# ${api} ${version} as released: the base of \`npm run spec:check\`, \`spec:diff\` and \`spec:changelog\`.\n` +
    `# Written by \`npm run spec:release -- --api ${api}\` from generated/openapi/${api}.yaml; never edited by hand.\n`
  );
}

/** A release file's text for a bundle. */
export function releaseText(api, bundleText) {
  return releaseHeader(api, parse(bundleText)?.info?.version) + bundleText;
}

/** The bundle inside a release file's text (its leading comment lines dropped). */
export function releaseBody(text) {
  return text.replace(/^(?:#.*\n)*/, '');
}

/** { path, body, version } of an API's release file; undefined when there is none. */
export function readRelease(api, cwd) {
  const path = join(cwd, releasePath(api));
  if (!existsSync(path)) return undefined;
  const body = releaseBody(readFileSync(path, 'utf8'));
  return { path, body, version: parse(body)?.info?.version };
}

/**
 * What a tag `<api>@<version>` or `v<version>` publishes must be released:
 * the API's release file holds that version, or package.json has it.
 * Returns the problems, none when the tag is right.
 */
export function releaseTagProblems(tag, { apis, cwd }) {
  const packageTag = /^v(.+)$/.exec(tag);
  if (packageTag && parseVersion(packageTag[1])) {
    const { version } = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
    return version === packageTag[1] ? [] : [`tag ${tag}: package.json has version ${version}, not ${packageTag[1]}.`];
  }
  const apiTag = /^(.+)@(.+)$/.exec(tag);
  if (!apiTag || !parseVersion(apiTag[2])) return [`tag ${tag}: not a release tag (<api>@<version> or v<version>).`];
  const [, api, version] = apiTag;
  if (!apis.includes(api)) return [`tag ${tag}: no API ${api} (redocly.yaml declares ${apis.join(', ')}).`];
  const release = readRelease(api, cwd);
  if (!release) return [`tag ${tag}: there is no ${releasePath(api)}.`];
  return release.version === version ? [] : [`tag ${tag}: ${releasePath(api)} holds ${api} ${release.version}, not ${version}.`];
}
