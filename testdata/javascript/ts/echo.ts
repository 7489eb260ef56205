// Prints its first argument, DBG_E2E and its working directory (the
// args/env/cwd conformance scenario).
export {}; // a module: its names are its own

declare const process: { argv: string[]; env: { [name: string]: string | undefined }; cwd(): string };

const arg: string = process.argv[2];
console.log(`${arg} ${process.env.DBG_E2E} ${process.cwd()}`);
