// A tiny long-running program for run-configuration tests.
console.log("server started args=" + process.argv.slice(2).join(","));
setInterval(() => console.log("tick"), 200);
