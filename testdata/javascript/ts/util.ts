// A second module, loaded after the program starts.
export interface Options {
  loud: boolean;
}

export function shout(s: string, opts: Options): string {
  const out: string = opts.loud ? s.toUpperCase() : s; // BP:ts-shout
  return out + '!';
}
