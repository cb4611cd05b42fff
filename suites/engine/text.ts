// Small text helpers for verdict messages: kept in suites/judge/text.ts (the lowest floor that needs them).
export { isObj, oneLine, short } from '../judge/text.ts';
