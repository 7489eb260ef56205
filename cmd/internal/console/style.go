package console

// painter colours the console's output with ANSI escapes when on is set
// (a terminal, NO_COLOR unset); otherwise it returns text unchanged.
type painter struct{ on bool }

func (c painter) wrap(code, s string) string {
	if !c.on || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (c painter) loc(s string) string     { return c.wrap("36", s) }   // cyan: FILE:LINE
func (c painter) fn(s string) string      { return c.wrap("33", s) }   // yellow: a function
func (c painter) name(s string) string    { return c.wrap("32", s) }   // green: a variable
func (c painter) mark(s string) string    { return c.wrap("1;35", s) } // bold magenta: =>, *
func (c painter) current(s string) string { return c.wrap("1", s) }    // bold: the current line
func (c painter) err(s string) string     { return c.wrap("1;31", s) } // bold red: errors
func (c painter) dim(s string) string     { return c.wrap("2", s) }    // faint: status
func (c painter) prompt(s string) string  { return s }                 // readline measures the prompt; keep it plain
