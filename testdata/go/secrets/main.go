// Holds credentials in locals, a map, strings and environment entries,
// then prints a line without them: a fixture for the redaction of values.
package main

import (
	"fmt"
	"os"
)

func main() {
	password := "hunter2"
	headers := map[string]string{"Authorization": "Bearer abcdef123456789", "Accept": "*/*"}
	cert := "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----"
	dbURL := "postgres://bob:s3cretpw@db.local:5432/app"
	env := []string{"HOME=" + os.Getenv("HOME"), "SERVICE_TOKEN=" + os.Getenv("SERVICE_TOKEN")}
	user := "bob"
	count := len(headers) + 1
	fmt.Printf("ready user=%s count=%d\n", user, count) // BREAK: secrets
	_, _, _, _ = password, cert, dbURL, env
	fmt.Println("done")
}
