import { claudeCode } from './claude-code';
import { codex } from './codex';
import { copilot } from './copilot';
import { droid } from './droid';
import { gemini } from './gemini';
import type { HostAdapter, HostName } from './host';
import { qwen } from './qwen';

export const HOST_ADAPTERS: Record<HostName, HostAdapter> = { 'claude-code': claudeCode, codex, copilot, gemini, qwen, droid };
