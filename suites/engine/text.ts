// Small text helpers for verdict messages: kept in suites/judge/text.ts (the lowest floor that needs them).
export { isObj, short } from '../judge/text.ts';
