// The CLI's help text (`mcp-tasks-conformance --help`, `server --help`): a module of its own, so that printing
// it loads none of the checks, the engine or the transports.
import { REVISIONS } from '../schema/spec.ts';
import { DEFAULT_DISCOVERY, DEFAULT_RUN_OPTIONS, REVISION_CHOICES } from '../suites/engine/options.ts';

/** One flag of the `server` command as --help shows it: its argument and its lines of text (the GitHub Action's inputs are described by the same text). */
export interface FlagHelp {
  flag: string;
  arg?: string;
  lines: string[];
}

/** The `server` command's flags, in --help's order: every flag of SERVER_OPTIONS but --help and --timeout (the older --request-timeout). */
export const SERVER_FLAG_HELP: readonly FlagHelp[] = [
  {
    flag: 'revision',
    arg: `<r>`,
    lines: [
      `${REVISION_CHOICES.join(' | ')} (default auto: probe with server/discover, fall back to`,
      `initialize; the choice and why are printed; a target that speaks both is graded in both)`,
    ],
  },
  { flag: 'stdio', arg: `<command>`, lines: [`spawn the target and talk over stdio`] },
  { flag: 'url', arg: `<url>`, lines: [`Streamable HTTP endpoint of the target`] },
  { flag: 'header', arg: `"K: V"`, lines: [`HTTP header sent on every request (repeatable), e.g. "Authorization: Bearer X"`] },
  { flag: 'secondary-header', arg: `"K: V"`, lines: [`headers of a second identity for the isolation checks (repeatable)`] },
  { flag: 'profile', arg: `<file>`, lines: [`which tool plays which role (docs/SERVERS.md); it wins for the roles it names`] },
  {
    flag: 'discover',
    arg: `off|safe|all`,
    lines: [
      `find the roles the profile leaves out by calling tools as tasks, and the requestor roles`,
      `by calling plainly, as a client declaring tasks.requests.*, the tools that say sampling or`,
      `elicitation; in 2026-07-28 by calling tools as a client declaring the Tasks extension,`,
      `answering their input (default safe: only tools whose annotations, name and description`,
      `look safe; the plan is printed first)`,
    ],
  },
  { flag: 'discover-budget', arg: `<ms>`, lines: [`bound for discovery (default ${DEFAULT_DISCOVERY.budgetMs})`] },
  {
    flag: 'list',
    lines: [
      `print what would run (checks, roles, revision, the discovery plan, why a check would not be`,
      `exercised) after initialize, tools/list (and pings) only: no tool is called, nothing task-augmented sent`,
    ],
  },
  {
    flag: 'write-profile',
    arg: `<file>`,
    lines: [
      `save every role of every revision graded (discovered ones with what was observed, absent ones`,
      `with why) as a profile to keep: a run with it does no discovery`,
    ],
  },
  { flag: 'allow-partial-profile', lines: [`let --write-profile with --only/--exclude save only the roles the selected checks need`] },
  {
    flag: 'allow-unmatched',
    lines: [`a profile tool the target does not list, or a selector matching no check of the revisions`, `graded, is a note instead of a usage error (exit 2)`],
  },
  { flag: 'require-coverage', lines: [`MUST requirements that apply but were not exercised fail the run (CI gates)`] },
  { flag: 'only', arg: `<ids>`, lines: [`comma-separated check ids, id prefixes, requirement ids or sections (repeatable)`] },
  { flag: 'exclude', arg: `<ids>`, lines: [`the same selectors, left out of the run (repeatable; wins over --only)`] },
  {
    flag: 'max-tasks',
    arg: `<n>`,
    lines: [`most tasks the run keeps live at once (default ${DEFAULT_RUN_OPTIONS.maxTasks}); checks that load the target on purpose run last`],
  },
  { flag: 'json', arg: `<file>`, lines: [`write the JSON report`] },
  { flag: 'junit', arg: `<file>`, lines: [`write JUnit XML (a testsuite per section, a testcase per check with its requirement ids)`] },
  {
    flag: 'markdown',
    arg: `<file>`,
    lines: [`write a Markdown report (tables per section; failures with requirement text, a sequence diagram, the messages)`],
  },
  { flag: 'baseline', arg: `<file>`, lines: [`expected failures (JSON list or YAML "- id" list); a listed check that passes is stale`] },
  { flag: 'strict', lines: [`warnings fail the run too`] },
  { flag: 'request-timeout', arg: `<ms>`, lines: [`bound for one request (default ${DEFAULT_RUN_OPTIONS.requestTimeoutMs}; --timeout is its older name)`] },
  { flag: 'check-timeout', arg: `<ms>`, lines: [`bound for one check (default ${DEFAULT_RUN_OPTIONS.checkTimeoutMs}, at least 3 × the request timeout)`] },
  { flag: 'concurrency', arg: `<n>`, lines: [`checks run at once (default ${DEFAULT_RUN_OPTIONS.concurrency})`] },
  { flag: 'no-color', lines: [`plain console output`] },
  {
    flag: 'properties',
    lines: [
      `also run the property-based tests (state machine, races, hostile input; suites/properties/README.md),`,
      `of each revision the target is graded in (2026-07-28: the extension's model, 2026-properties.*)`,
    ],
  },
  { flag: 'runs', arg: `<n>`, lines: [`property runs (command sequences / race schedules; hostile inputs: n × 10 per category; default 100)`] },
  { flag: 'seed', arg: `<n>`, lines: [`fast-check seed for the properties (default random; printed)`] },
  { flag: 'path', arg: `<token>`, lines: [`replay one printed counterexample (<property>/<path>[/<replayPath>]; needs --seed; skips the checks)`] },
  { flag: 'properties-timeout', arg: `<ms>`, lines: [`time limit per property (default 60000); an interrupted property is reported as skip, not pass`] },
  { flag: 'replay-dir', arg: `<dir>`, lines: [`write the replay of every fail and warn there, one file per check (mcp-tasks-conformance replay <file>)`] },
];

/** A flag's line of --help: `--name <arg>` in a column of its own, the text beside it and under it. */
function helpLines(f: FlagHelp): string {
  const head = `  --${f.flag}${f.arg ? ` ${f.arg}` : ''}`;
  return f.lines.map((l, i) => (i === 0 ? `${head.padEnd(29)}${head.length >= 29 ? ' ' : ''}${l}` : `${' '.repeat(29)}${l}`)).join('\n');
}

export const HELP = `mcp-tasks-conformance — conformance suite for MCP Tasks (spec ${REVISIONS.join(', and the Tasks extension of ')})

Usage:
  mcp-tasks-conformance server (--stdio "<command>" | --url <http-url> [--header "K: V"]…) [options]
  mcp-tasks-conformance mock (--stdio | --http <port>) [mock options]   (mock --help for its options)
  mcp-tasks-conformance mock --judge (--stdio | --http <port>) [--revision <r>] [--scenario <name>]
                                          the reference server grades whoever talks to it, live (mock --judge --help; docs/CLIENTS.md)
  mcp-tasks-conformance client --command "<client command>" [--scenario <name>]… [--transport http|stdio]
                                          grade an MCP client as a task requestor (client --help; docs/CLIENTS.md)
  mcp-tasks-conformance checks [--revision <r>]
                                          list every check (receiver, requestor, property) with its revision, requirement ids and the faults that kill it

server options:
${SERVER_FLAG_HELP.map(helpLines).join('\n')}

replay: mcp-tasks-conformance replay <file.json> (--stdio "<command>" | --url <url> [--header "K: V"]…) [--check <id>]
                             send a flagged check's recorded messages again, the ids the target chose filled in; prints the answers
`;
