import { missingPrograms } from './helpers/programs';

/**
 * Before any test runs: the programs tests run for real (test/programs.txt). Under CI every one
 * with a Debian package must be installed (.ci/run installs them), and a missing one fails the
 * run here, naming it; elsewhere the run goes on, and says which real runs it will skip.
 */
export default function setup(): void {
  const missing = missingPrograms();
  const installable = missing.filter((m) => m.pkg !== '-');
  if (process.env.CI === 'true' && installable.length > 0) {
    throw new Error(
      `programs the tests run for real are not installed: ${installable.map((m) => `${m.program} (package ${m.pkg})`).join(', ')}. .ci/run installs them: apt-get install ${[...new Set(installable.map((m) => m.pkg))].join(' ')}`,
    );
  }
  if (missing.length > 0) {
    process.stderr.write(
      `Not installed here, so the real runs that need them are skipped (their verdicts are still checked): ${missing.map((m) => (m.pkg === '-' ? `${m.program} (no Debian package)` : `${m.program} (apt-get install ${m.pkg})`)).join(', ')}\n`,
    );
  }
}
