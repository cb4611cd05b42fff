// The shape of a latitude registry (mocks/receiver/latitudes.ts; a reference client's registry takes the
// same shape) and the cells of its no-false-verdict matrix: every latitude alone (so that one cannot hide
// another), all the mutually compatible ones together (their interplay), and those marked `overHttp`
// together over Streamable HTTP. The matrix tests run each cell's suite and require zero fail and zero
// warn; scripts/docs-coverage.ts shows the cells in docs/COVERAGE.md.

export interface LatitudeInfo {
  name: string;
  /**
   * What leaves this freedom: a requirement id, a ruling (`RULINGS.md#<slug>`), or an optional field of the
   * schema (`schema:<Definition>.<path>`, e.g. `schema:Task.statusMessage`).
   */
  allows: string;
  description: string;
  /** Peer options the latitude is, or needs (CLI flags, e.g. ['--max-concurrent-tasks', '4']); `--latitude <name>` implies them. */
  args?: readonly string[];
  /** Latitudes this one cannot share a cell with (they change the same behaviour, or one hides what the other allows). */
  excludes?: readonly string[];
  /** Its effect depends on the transport: it also runs in the Streamable HTTP cell. */
  overHttp?: true;
  /** Its HTTP cell is its own, and the run's requests there carry credentials (a bearer token) with no second identity. */
  credentials?: true;
}

export interface LatitudeCell {
  label: string;
  latitudes: readonly string[];
  /** Where the cell runs: the reference receiver in process or over Streamable HTTP; a client's scenarios over HTTP or stdio. */
  transport: 'in-process' | 'http' | 'stdio';
  /** The run's requests carry credentials (an Authorization header). */
  credentials?: true;
}

/** The greatest set of latitudes that exclude none of each other, in registry order. */
export function compatibleLatitudes(all: readonly LatitudeInfo[]): string[] {
  const out: string[] = [];
  const excludes = (a: string, b: string) => (all.find((x) => x.name === a)?.excludes ?? []).includes(b);
  for (const l of all) if (!out.some((o) => excludes(l.name, o) || excludes(o, l.name))) out.push(l.name);
  return out;
}

/** The cells of the matrix for one registry. */
export function latitudeCells(all: readonly LatitudeInfo[]): LatitudeCell[] {
  const http = all.filter((l) => l.overHttp);
  const together = compatibleLatitudes(http.filter((l) => !l.credentials));
  // An HTTP latitude that excludes one of the combined HTTP cell, or needs credentials, runs over HTTP alone.
  const alone = http.filter((l) => !together.includes(l.name));
  return [
    ...all.map((l) => ({ label: l.name, latitudes: [l.name], transport: 'in-process' as const })),
    { label: 'all compatible', latitudes: compatibleLatitudes(all), transport: 'in-process' },
    ...(http.length ? [{ label: 'over HTTP', latitudes: together, transport: 'http' as const }] : []),
    ...alone.map((l) => ({
      label: `${l.name} over HTTP`,
      latitudes: [l.name],
      transport: 'http' as const,
      ...(l.credentials ? { credentials: true as const } : {}),
    })),
  ];
}
