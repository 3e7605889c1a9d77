// The project every runtime runs in: a user's empty project under the OS
// temp folder with the packed package installed from its tarball, the user
// script and the small harness that runs it and reports back.
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installProject, packPackage } from '../../support/packed-package.js';

const here = import.meta.dirname;

/** Packs the working tree once and installs it into a new project; returns the temporary folder and the project in it. */
export async function createRuntimeProject(): Promise<{ tmp: string; project: string }> {
  const tmp = await mkdtemp(join(tmpdir(), 'sdk-runtimes-'));
  const project = join(tmp, 'project');
  try {
    await mkdir(project);
    const { tarball } = await packPackage(tmp);
    await installProject(project, [tarball]);
    for (const file of ['user-script.mjs', 'canonical.mjs']) await copyFile(join(here, file), join(project, file));
    for (const file of await readdir(join(here, 'harness'))) {
      await copyFile(join(here, 'harness', file), join(project, file));
    }
    return { tmp, project };
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
}
