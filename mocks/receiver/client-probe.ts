// Scenario hook probeClientReceiver (client grading): a client that declares task augmentation for
// sampling/createMessage or elicitation/create is a task receiver too, and real servers send it such
// requests while one of its tools/call is in flight. On the first tools/call of a session, before the
// call is processed, the receiver sends one task-augmented request of each declared type related to
// that call and follows the client's task as the reference requestor does (requestor.ts; one more
// tasks/get after the terminal status); and each type the client supports but did not declare for tasks
// (all of them for a client declaring no tasks capability) once without `task` and once with it, to see
// it processed normally (support-undeclared-process-normally, caps-declare).
// suites/requestor/receiving-checks.ts judges what the client answered.
import type { SessionPort } from './port.ts';
import type { RequestCtx } from './core.ts';
import { clientDeclares, requestFromClient, type ClientRequestMethod } from './requestor.ts';
import type { JsonRpcErrorObject } from './store.ts';

/**
 * Bound for each message of the probe (ms): a client that leaves or never answers only ends the probe. At least
 * PROBE_TIMEOUT_MS; more when the client is slow to react in this session (PROBE_REACTION_FACTOR times the longest it took
 * from one of our responses to its next message, a loaded machine's measure), at most PROBE_MAX_MS.
 */
export const PROBE_TIMEOUT_MS = 5_000;
export const PROBE_REACTION_FACTOR = 20;
export const PROBE_MAX_MS = 60_000;

export function probeBoundMs(peerReactionMs: number): number {
  return Math.min(PROBE_MAX_MS, Math.max(PROBE_TIMEOUT_MS, Math.round(PROBE_REACTION_FACTOR * peerReactionMs)));
}
const PROBE_TEXT = 'conformance: complete';

const probed = new WeakSet<SessionPort>();

function paramsFor(method: ClientRequestMethod): Record<string, unknown> {
  return method === 'sampling/createMessage'
    ? { messages: [{ role: 'user', content: { type: 'text', text: PROBE_TEXT } }], maxTokens: 32 }
    : { mode: 'form', message: PROBE_TEXT, requestedSchema: { type: 'object', properties: { answer: { type: 'string', title: 'Answer' } } } };
}

function supports(caps: Record<string, unknown>, method: ClientRequestMethod): boolean {
  return (method === 'sampling/createMessage' ? caps.sampling : caps.elicitation) !== undefined;
}

class ProbeTimeout extends Error {}

export async function probeClientReceiver(s: SessionPort, ctx: RequestCtx): Promise<void> {
  if (probed.has(s) || !s.core.scenario?.probeClientReceiver) return;
  probed.add(s);
  const caps = s.clientCapabilities;
  const methods: ClientRequestMethod[] = ['sampling/createMessage', 'elicitation/create'];
  const declared = methods.filter((m) => clientDeclares(caps, m));
  const undeclared = methods.filter((m) => !declared.includes(m) && supports(caps, m));
  if (declared.length === 0 && undeclared.length === 0) return;
  const send = (method: string, params: Record<string, unknown>): Promise<{ result?: unknown; error?: JsonRpcErrorObject }> => {
    const { response } = s.request(method, params, ctx.id);
    const bound = probeBoundMs(s.peerReactionMs);
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new ProbeTimeout(`no answer to ${method} within ${bound} ms (the client's slowest reaction here: ${s.peerReactionMs} ms)`)),
        bound,
      );
      t.unref?.();
      response.then(
        (r) => {
          clearTimeout(t);
          resolve(r);
        },
        (e) => {
          clearTimeout(t);
          reject(e);
        },
      );
    });
  };
  const signal = new AbortController().signal;
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.min(ms, probeBoundMs(s.peerReactionMs))));
  try {
    for (const method of declared) {
      s.tap('event', undefined, `probe: task-augmented ${method} while tools/call ${JSON.stringify(ctx.id)} is in flight`);
      await requestFromClient({ clientCapabilities: caps, switches: s.core.switches, signal, sleep, send }, method, paramsFor(method), {
        confirmTerminal: true,
      });
    }
    for (const method of undeclared) {
      // The plain request first: "processed normally" is judged against how the client answers it.
      s.tap('event', undefined, `probe: ${method} without \`task\`, for comparison`);
      await send(method, paramsFor(method));
      s.tap('event', undefined, `probe: ${method} with \`task\`, a type the client did not declare`);
      await send(method, { ...paramsFor(method), task: { ttl: 60_000 } });
    }
  } catch (e) {
    s.tap('event', undefined, `probe ended: ${e instanceof Error ? e.message : String(e)}`);
  }
}
