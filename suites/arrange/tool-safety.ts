// Which tools of a target the suite may call unasked (discovery in `safe` mode, the capability checks):
// judged from annotations, name and description.

/** Name words of tools that change or leak state (matched against the name split into words). */
const RISKY_NAME_WORDS = new Set(
  (
    'delete remove rm del drop destroy erase purge wipe truncate clear reset write overwrite update modify edit set put post patch ' +
    'send email mail sms publish notify exec execute run shell spawn eval kill terminate stop shutdown restart reboot format ' +
    'env environ environment secret secrets token tokens password passwords credential credentials key keys ' +
    'transfer pay payment purchase buy deploy install uninstall upload move rename create insert revoke ban'
  ).split(' '),
);
/** Phrases in a description that mark a tool as destructive or as dumping secrets. */
const RISKY_DESCRIPTION =
  /\b(delet(e|es|ing)|remov(e|es|ing)|destroy|eras(e|es|ing)|wipes?|purg(e|es|ing)|truncat|overwrit|irreversib|permanently|shell command|execut(e|es|ing) (an? |arbitrary )?(shell |system )?commands?|environment variables?|secrets?|credentials?|passwords?|api keys?|kill(s|ing)? (an? |the )?process|send(s|ing)? (an? )?(e-?mail|sms|text message)|payments?)\b/i;

/** Splits "get-env", "get_env", "getEnv" into lower-case words. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/**
 * Whether a tool may be called in `safe` mode, and why (or why not). Annotations can only rule a tool out:
 * they are untrusted (tools.md: clients MUST consider tool annotations untrusted unless from trusted
 * servers), so the name and description are judged even for a tool annotated read-only.
 */
export function toolSafety(tool: any): { safe: boolean; reason: string } {
  const a = tool?.annotations ?? {};
  if (a.destructiveHint === true) return { safe: false, reason: 'annotated destructiveHint: true' };
  if (a.openWorldHint === true) return { safe: false, reason: 'annotated openWorldHint: true (reaches outside the server)' };
  if (a.readOnlyHint === false && a.destructiveHint !== false)
    return { safe: false, reason: 'annotated readOnlyHint: false without destructiveHint: false (destructiveHint defaults to true)' };
  const word = nameWords(String(tool?.name ?? '')).find((w) => RISKY_NAME_WORDS.has(w));
  if (word) return { safe: false, reason: `its name says "${word}"` };
  const phrase = RISKY_DESCRIPTION.exec(`${tool?.title ?? ''} ${tool?.description ?? ''}`);
  if (phrase) return { safe: false, reason: `its description says "${phrase[0]}"` };
  if (a.readOnlyHint === true) return { safe: true, reason: 'annotated readOnlyHint: true' };
  if (a.destructiveHint === false) return { safe: true, reason: 'annotated destructiveHint: false' };
  return { safe: true, reason: 'no annotations; nothing in its name or description looks destructive' };
}
