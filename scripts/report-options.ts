// Command-line options of the reports (util.parseArgs), the same for the `server` and `client` commands.
export const REPORT_OPTIONS = {
  json: { type: 'string' },
  junit: { type: 'string' },
  markdown: { type: 'string' },
  baseline: { type: 'string' },
  strict: { type: 'boolean', default: false },
  'no-color': { type: 'boolean', default: false },
} as const;
