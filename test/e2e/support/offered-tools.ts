/**
 * The tools a request to the model offers: the `tools` array (less Claude Code's placeholder for
 * deferred tools), plus the tools it defers behind ToolSearch, which it names in a system reminder
 * of the first user message (Claude Code 2.1.332). A deferred tool is offered: the model loads it by name.
 */
export function offeredTools(body: any): string[] {
  const direct: string[] = (body.tools ?? []).filter((t: any) => !t.defer_loading).map((t: any) => String(t.name));
  const deferred: string[] = [];
  const marker = 'The following deferred tools are now available via ToolSearch';
  for (const message of body.messages ?? []) {
    const blocks = Array.isArray(message.content) ? message.content : [{ text: message.content }];
    for (const block of blocks) {
      const text = String(block?.text ?? '');
      const at = text.indexOf(marker);
      if (at < 0) continue;
      for (const line of text.slice(at).split('\n').slice(1)) {
        const name = line.trim();
        if (name.startsWith('<')) break;
        if (/^[A-Za-z_][\w-]*$/.test(name)) deferred.push(name);
      }
    }
  }
  return [...new Set([...direct, ...deferred])];
}

/**
 * The same for a Chat Completions request (Copilot, Droid): each tool's function name, plus the
 * tools Droid 0.225.2 defers behind ToolSearch, listed after "Deferred tools:" in a system reminder.
 */
export function offeredChatTools(body: any): string[] {
  const direct: string[] = (body.tools ?? []).map((t: any) => String(t.function?.name ?? t.name));
  const deferred: string[] = [];
  const text = JSON.stringify(body.messages ?? []);
  for (const [, list] of text.matchAll(/Deferred tools:((?:\\n[A-Za-z_][\w-]*)+)/g)) deferred.push(...list!.split('\\n').filter(Boolean));
  return [...new Set([...direct, ...deferred])];
}
