// Form content that satisfies an elicitation/create's requestedSchema: the first enum/oneOf choice,
// else a plain value of the field's type (one choice for a multi-select array). Shared by the checks and the reference client.
export function elicitationContent(params: any, text: string): Record<string, unknown> {
  const props = params?.requestedSchema?.properties;
  const out: Record<string, unknown> = {};
  if (!props || typeof props !== 'object') return out;
  for (const [k, p] of Object.entries(props as Record<string, any>)) {
    if (Array.isArray(p?.enum) && p.enum.length) out[k] = p.enum[0];
    else if (Array.isArray(p?.oneOf) && p.oneOf[0]?.const !== undefined) out[k] = p.oneOf[0].const;
    else if (p?.type === 'number' || p?.type === 'integer') out[k] = typeof p.minimum === 'number' ? p.minimum : 1;
    else if (p?.type === 'boolean') out[k] = true;
    else if (p?.type === 'array')
      out[k] = Array.isArray(p.items?.enum)
        ? p.items.enum.slice(0, 1)
        : Array.isArray(p.items?.anyOf)
          ? p.items.anyOf.slice(0, 1).map((x: any) => x?.const)
          : [];
    else out[k] = text;
  }
  return out;
}
