// Holds credentials in locals, an object, strings and environment
// entries, then prints a line without them: a fixture for the redaction
// of values.
function main() {
  const password = "hunter2";
  const headers = { Authorization: "Bearer abcdef123456789", Accept: "*/*" };
  const cert = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----";
  const dbURL = "postgres://bob:s3cretpw@db.local:5432/app";
  const env = { HOME: process.env.HOME, SERVICE_TOKEN: process.env.SERVICE_TOKEN };
  const user = "bob";
  const count = Object.keys(headers).length + 1;
  console.log(`ready user=${user} count=${count}`); // BREAK: secrets
  return [password, cert, dbURL, env];
}

main();
console.log("done");
