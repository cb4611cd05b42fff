// The CLI's help text (`mcp-tasks-conformance --help`, `server --help`): a module of its own, so that printing
// it loads none of the checks, the engine or the transports.
import { REVISIONS } from '../schema/spec.ts';
import { DEFAULT_DISCOVERY, DEFAULT_RUN_OPTIONS, REVISION_CHOICES } from '../suites/engine/options.ts';

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
  --revision <r>             ${REVISION_CHOICES.join(' | ')} (default auto: probe with server/discover, fall back to
                             initialize; the choice and why are printed; a target that speaks both is graded in both)
  --stdio <command>          spawn the target and talk over stdio
  --url <url>                Streamable HTTP endpoint of the target
  --header "K: V"            HTTP header sent on every request (repeatable), e.g. "Authorization: Bearer X"
  --secondary-header "K: V"  headers of a second identity for the isolation checks (repeatable)
  --profile <file>           which tool plays which role (docs/SERVERS.md); it wins for the roles it names
  --discover off|safe|all    find the roles the profile leaves out by calling tools as tasks, and the requestor roles
                             by calling plainly, as a client declaring tasks.requests.*, the tools that say sampling or
                             elicitation; in 2026-07-28 by calling tools as a client declaring the Tasks extension,
                             answering their input (default safe: only tools whose annotations, name and description
                             look safe; the plan is printed first)
  --discover-budget <ms>     bound for discovery (default ${DEFAULT_DISCOVERY.budgetMs})
  --list                     print what would run (checks, roles, revision, the discovery plan, why a check would not be
                             exercised) after initialize, tools/list (and pings) only: no tool is called, nothing task-augmented sent
  --write-profile <file>     save every role of every revision graded (discovered ones with what was observed, absent ones
                             with why) as a profile to keep: a run with it does no discovery
  --allow-partial-profile    let --write-profile with --only/--exclude save only the roles the selected checks need
  --allow-unmatched          a profile tool the target does not list, or a selector matching no check of the revisions
                             graded, is a note instead of a usage error (exit 2)
  --require-coverage         MUST requirements that apply but were not exercised fail the run (CI gates)
  --only <ids>               comma-separated check ids, id prefixes, requirement ids or sections (repeatable)
  --exclude <ids>            the same selectors, left out of the run (repeatable; wins over --only)
  --max-tasks <n>            most tasks the run keeps live at once (default ${DEFAULT_RUN_OPTIONS.maxTasks}); checks that load the target on purpose run last
  --json <file>              write the JSON report
  --junit <file>             write JUnit XML (a testsuite per section, a testcase per check with its requirement ids)
  --markdown <file>          write a Markdown report (tables per section; failures with requirement text, a sequence diagram, the messages)
  --baseline <file>          expected failures (JSON list or YAML "- id" list); a listed check that passes is stale
  --strict                   warnings fail the run too
  --request-timeout <ms>     bound for one request (default ${DEFAULT_RUN_OPTIONS.requestTimeoutMs}; --timeout is its older name)
  --check-timeout <ms>       bound for one check (default ${DEFAULT_RUN_OPTIONS.checkTimeoutMs}, at least 3 × the request timeout)
  --concurrency <n>          checks run at once (default ${DEFAULT_RUN_OPTIONS.concurrency})
  --no-color                 plain console output
  --properties               also run the property-based tests (state machine, races, hostile input; suites/properties/README.md),
                             of each revision the target is graded in (2026-07-28: the extension's model, 2026-properties.*)
  --runs <n>                 property runs (command sequences / race schedules; hostile inputs: n × 10 per category; default 100)
  --seed <n>                 fast-check seed for the properties (default random; printed)
  --path <token>             replay one printed counterexample (<property>/<path>[/<replayPath>]; needs --seed; skips the checks)
  --properties-timeout <ms>  time limit per property (default 60000); an interrupted property is reported as skip, not pass
  --replay-dir <dir>         write the replay of every fail and warn there, one file per check (mcp-tasks-conformance replay <file>)

replay: mcp-tasks-conformance replay <file.json> (--stdio "<command>" | --url <url> [--header "K: V"]…) [--check <id>]
                             send a flagged check's recorded messages again, the ids the target chose filled in; prints the answers
`;
