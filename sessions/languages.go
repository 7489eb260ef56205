package sessions

import (
	"context"
	"sync"

	"github.com/dbg-dev/dbg/adapters"
)

// Languages reports every registered adapter, with what each can do on
// this machine (adapters.MachineChecker). Adapters are probed in
// parallel: each probe may run a version command.
func (m *Manager) Languages(ctx context.Context) []adapters.Info {
	langs := m.cfg.Adapters.Languages()
	out := make([]adapters.Info, len(langs))
	var wg sync.WaitGroup
	for i, l := range langs {
		wg.Add(1)
		go func(i int, l string) {
			defer wg.Done()
			a, _ := m.cfg.Adapters.Lookup(l)
			info := m.findAdapter(ctx, a)
			if mc, ok := a.(adapters.MachineChecker); ok {
				info = mc.CheckMachine(ctx, info)
			}
			info.Aliases = m.cfg.Adapters.Aliases(l)
			out[i] = info
		}(i, l)
	}
	wg.Wait()
	return out
}
