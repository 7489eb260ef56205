// Prints its first argument, DBG_E2E and its working directory (the
// args/env/cwd conformance scenario).
console.log(process.argv[2], process.env.DBG_E2E, process.cwd());
