//go:build race

package debugtools_test

import "github.com/dbg-dev/dbg/toolkit"

func init() { bigString = toolkit.MaxStringBytes + 1 }
