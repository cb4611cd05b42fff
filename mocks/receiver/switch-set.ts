// The named switches (faults, latitudes) active in one reference receiver: a set of known names.

/** The switches of one kind active in one receiver; an unknown name is refused with the known ones. */
export class SwitchSet<Name extends string> {
  private readonly set: ReadonlySet<Name>;
  constructor(kind: 'fault' | 'latitude', known: readonly Name[], names: Iterable<string> = []) {
    const s = new Set<Name>();
    for (const n of names) {
      if (!(known as readonly string[]).includes(n)) throw new Error(`unknown ${kind}: ${n} (known: ${known.join(', ')})`);
      s.add(n as Name);
    }
    this.set = s;
  }
  has(name: Name): boolean {
    return this.set.has(name);
  }
  get names(): Name[] {
    return [...this.set];
  }
}
