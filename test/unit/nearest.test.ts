import { describe, expect, it } from 'vitest';
import { nearest } from '../../src/core/nearest';

const LEVELS = ['none', 'read_only', 'workspace_write', 'process_exec', 'network'];
const HOSTS = ['claude-code', 'codex', 'copilot', 'gemini', 'qwen', 'droid'];

describe('nearest', () => {
  it.each([
    ['read_olny', LEVELS, 'read_only'],
    ['readonly', LEVELS, 'read_only'],
    ['netwrok', LEVELS, 'network'],
    ['Network', LEVELS, 'network'],
    ['ceilng', ['description', 'families', 'ceiling', 'agent_types'], 'ceiling'],
    ['familes', ['description', 'families', 'ceiling', 'agent_types'], 'families'],
    ['claude', HOSTS, 'claude-code'],
    ['gemni', HOSTS, 'gemini'],
    ['releaser', ['researcher', 'implementer', 'reviewer', 'releaser'], 'releaser'],
    ['relaser', ['researcher', 'implementer', 'reviewer', 'releaser'], 'releaser'],
  ])('%s → %s', (word, accepted, want) => {
    expect(nearest(word, accepted)).toBe(want);
  });

  it.each([
    ['banana', LEVELS],
    ['x', HOSTS],
    ['', HOSTS],
    ['co', HOSTS],
    ['c', ['a', 'b']],
  ])('offers nothing for %s, which is near no name', (word, accepted) => {
    expect(nearest(word, accepted)).toBeNull();
  });

  it('offers no start that is shared by several names', () => {
    expect(nearest('cod', ['codex', 'code-review'])).toBeNull();
  });
});
