// How guessable a sample of task ids is (security-crypto-ids, RULINGS.md#id-entropy): revision-neutral, pure.

/** Entropy estimate of a sample of ids: varying positions × log2(alphabet of the varying characters). */
export function estimateIdBits(ids: readonly string[]): { bits: number; varying: number; alphabet: number; minLength: number } {
  if (ids.length < 2) return { bits: 0, varying: 0, alphabet: 0, minLength: ids[0]?.length ?? 0 };
  const minLength = Math.min(...ids.map((s) => s.length));
  const chars = new Set<string>();
  let varying = 0;
  for (let i = 0; i < minLength; i++) {
    const column = ids.map((s) => s[i]!);
    if (column.some((c) => c !== column[0])) {
      varying++;
      for (const c of column) chars.add(c);
    }
  }
  const all = [...chars].join('');
  const alphabet =
    all === ''
      ? 0
      : /^[0-9]+$/.test(all)
        ? 10
        : /^[0-9a-f]+$/.test(all) || /^[0-9A-F]+$/.test(all)
          ? 16
          : /^[a-z]+$/.test(all) || /^[A-Z]+$/.test(all)
            ? 26
            : /^[0-9a-z]+$/.test(all) || /^[0-9A-Z]+$/.test(all)
              ? 36
              : /^[0-9a-zA-Z]+$/.test(all)
                ? 62
                : /^[0-9a-zA-Z_\-+/=]+$/.test(all)
                  ? 64
                  : 95;
  return { bits: alphabet > 1 ? Math.floor(varying * Math.log2(alphabet)) : 0, varying, alphabet, minLength };
}

/** Why a sample of ids (in creation order) looks predictable, or null. */
export function predictability(ids: readonly string[]): string | null {
  if (ids.length >= 2 && ids.every((s) => /^-?\d{1,15}$/.test(s))) {
    const n = ids.map(Number);
    const steps = n.slice(1).map((v, i) => v - n[i]!);
    if (steps.every((d) => Math.abs(d) < 1_000_000)) return `numeric ids moving in small steps (${steps.slice(0, 6).join(', ')})`;
  }
  if (ids.length >= 3) {
    const prefix = (a: string, b: string) => {
      let i = 0;
      while (i < a.length && i < b.length && a[i] === b[i]) i++;
      return i;
    };
    const minLength = Math.min(...ids.map((s) => s.length));
    const shared = ids.slice(1).map((s, i) => prefix(ids[i]!, s));
    if (minLength > 0 && shared.every((p) => p >= minLength - 3))
      return `consecutive ids differ only in their last ${Math.max(1, minLength - Math.min(...shared))} character(s) (counter-like)`;
  }
  return null;
}

/** Bits below which ids are guessable (RULINGS.md#id-entropy); below the UUIDv4 class (122) is only noted. */
export const MIN_ID_BITS = 64;
export const UUID_CLASS_BITS = 122;
