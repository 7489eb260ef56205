package ide

import (
	"context"
	"sync"
	"testing"
)

func TestGitStatusCacheConcurrent(t *testing.T) {
	w := newGitWorld(t)
	c := newGitStatusCache(newGit("", Options{}))

	// With its context already over, status still answers the cheap part.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	loc, err := locateGit(w.work)
	if err != nil {
		t.Fatal(err)
	}
	if r := c.repository(ctx, loc); r.Branch != "main" || r.Head == "" {
		t.Errorf("read under a dead context = %+v", r)
	}

	// Readers race a writer that commits.
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	stop := make(chan struct{})
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if reps := c.repositories(context.Background(), w.work); len(reps) != 1 || reps[0].Branch != "main" {
					errs <- "bad read"
					return
				}
			}
		}()
	}
	for i := 0; i < 5; i++ {
		commitFile(t, w.work, "f.txt", string(rune('a'+i))+"\n", "c")
	}
	close(stop)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	reps := c.repositories(context.Background(), w.work)
	if reps[0].Head != gitT(t, w.work, "rev-parse", "HEAD") {
		t.Errorf("after concurrent commits the cache shows %s", reps[0].Head)
	}
}
