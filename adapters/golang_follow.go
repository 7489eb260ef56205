package adapters

import (
	"context"
	"errors"
	"strconv"
	"strings"
)

// delve's follow-exec keeps the programs a Go program execs as more
// targets of its one DAP session: they stop together, and delve answers
// for the selected target (the one that stopped last, or the one
// `target switch` named). `dlv target list` marks the selected one with
// a star: "*\t4242\t/path/prog args".

// delveSelected returns the pid of delve's selected target.
func delveSelected(ctx context.Context, eval Eval) (int, error) {
	out, err := eval(ctx, "dlv target list")
	if err != nil {
		return 0, err
	}
	return parseTargetList(out)
}

// parseTargetList returns the selected pid of `target list`'s answer.
func parseTargetList(out string) (int, error) {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(line, "\t")
		if len(f) >= 2 && strings.TrimSpace(f[0]) == "*" {
			if pid, err := strconv.Atoi(strings.TrimSpace(f[1])); err == nil && pid > 0 {
				return pid, nil
			}
		}
	}
	return 0, errors.New("delve named no selected target: " + out)
}

// delveSelect makes pid delve's selected target.
func delveSelect(ctx context.Context, eval Eval, pid int) error {
	out, err := eval(ctx, "dlv target switch "+strconv.Itoa(pid))
	if err != nil {
		return err
	}
	if !strings.Contains(out, strconv.Itoa(pid)) {
		return errors.New("delve did not switch to process " + strconv.Itoa(pid) + ": " + out)
	}
	return nil
}
