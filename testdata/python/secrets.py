"""Holds credentials in locals, a dict, strings and the environment,
then prints a line without them: a fixture for the redaction of values."""

import os

def main():
    password = "hunter2"
    headers = {"Authorization": "Bearer abcdef123456789", "Accept": "*/*"}
    cert = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----"
    dbURL = "postgres://bob:s3cretpw@db.local:5432/app"
    env = dict(os.environ)
    user = "bob"
    count = len(headers) + 1
    print(f"ready user={user} count={count}", flush=True)  # BREAK: secrets
    return count


main()
print("done", flush=True)
