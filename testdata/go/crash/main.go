// A Go program that dies of a nil pointer: run it with GOTRACEBACK=crash
// (and a core size limit above 0) and it leaves a core file.
package main

import (
	"fmt"
	"os"
)

type account struct {
	owner   string
	balance int
}

func withdraw(a *account, amount int) int {
	label := "rent"
	fmt.Println("withdrawing", amount, "for", label)
	return a.balance - amount // CRASH: a is nil
}

func main() {
	var accounts map[string]*account
	fmt.Println("left", withdraw(accounts[os.Getenv("OWNER")], 5))
}
