/**
 * RFC 4180 CSV records from a stream of lines: quoted fields may hold commas, doubled
 * quotes and newlines (a record then spans several lines). Yields arrays of fields.
 */
export async function* csvRecords(lines: AsyncIterable<string>): AsyncIterable<string[]> {
  let fields: string[] = [];
  let field = '';
  let inQuotes = false;
  let pending = false;
  for await (const line of lines) {
    if (inQuotes) field += '\n';
    pending = true;
    let i = 0;
    while (i < line.length) {
      const c = line[i] as string;
      if (inQuotes) {
        if (c === '"') {
          if (line[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          inQuotes = false;
        } else field += c;
      } else if (c === '"') inQuotes = true;
      else if (c === ',') {
        fields.push(field);
        field = '';
      } else field += c;
      i++;
    }
    if (!inQuotes) {
      fields.push(field);
      if (!(fields.length === 1 && fields[0] === '')) yield fields;
      fields = [];
      field = '';
      pending = false;
    }
  }
  if (pending) {
    fields.push(field);
    yield fields;
  }
}
