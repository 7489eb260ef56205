package ide

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// GitTracks reports whether git tracks the file at path. A missing
// directory, a directory outside any repository and a missing git
// command all mean no; a git that does not answer within ten seconds is
// an error.
func GitTracks(ctx context.Context, path string) (bool, error) {
	dir := filepath.Dir(path)
	if _, err := os.Stat(dir); err != nil {
		return false, nil
	}
	_, err := gitCommand{timeout: 10 * time.Second}.run(ctx, dir, "ls-files", "--error-unmatch", "--", filepath.Base(path))
	var ge *GitError
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, ErrNoGit):
		return false, nil
	case errors.As(err, &ge) && !ge.TimedOut && ge.ExitCode >= 0:
		return false, nil
	default:
		return false, fmt.Errorf("asking git whether it tracks %s: %w", path, err)
	}
}
