package console

import (
	"bufio"
	"errors"
	"io"

	"github.com/chzyer/readline"
)

// errInterrupted is Ctrl-C at the prompt: the line is dropped.
var errInterrupted = errors.New("interrupted")

// editor reads the console's lines. It is used by the command loop's
// goroutine.
type editor interface {
	// ReadLine reads one line after prompt; a command line (history
	// set) is kept in the history. It returns io.EOF at the end of input
	// (Ctrl-D) and errInterrupted for Ctrl-C.
	ReadLine(prompt string, history bool) (string, error)
	Close() error
}

// newEditor is the terminal's line editor, or a plain line reader.
func newEditor(cfg Config, complete func(text string) (string, []string)) (editor, error) {
	if !cfg.Terminal {
		sc := bufio.NewScanner(cfg.IO.In)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		return plainEditor{sc}, nil
	}
	in, ok := cfg.IO.In.(io.ReadCloser)
	if !ok {
		in = io.NopCloser(cfg.IO.In)
	}
	rl, err := readline.NewEx(&readline.Config{
		Prompt:                 "(dbg) ",
		HistoryFile:            cfg.HistoryFile,
		HistoryLimit:           1000,
		DisableAutoSaveHistory: true,
		HistorySearchFold:      true,
		AutoComplete:           completer{complete},
		InterruptPrompt:        "^C",
		EOFPrompt:              "",
		Stdin:                  in,
		Stdout:                 cfg.IO.Out,
		Stderr:                 cfg.IO.ErrOut,
	})
	if err != nil {
		return nil, err
	}
	return lineEditor{rl}, nil
}

// lineEditor edits lines on a terminal (chzyer/readline): history,
// search, completion.
type lineEditor struct{ rl *readline.Instance }

func (e lineEditor) ReadLine(prompt string, history bool) (string, error) {
	e.rl.SetPrompt(prompt)
	line, err := e.rl.Readline()
	if errors.Is(err, readline.ErrInterrupt) {
		return "", errInterrupted
	}
	if err == nil && history && line != "" {
		_ = e.rl.SaveHistory(line)
	}
	return line, err
}

func (e lineEditor) Close() error { return e.rl.Close() }

// plainEditor reads lines from a pipe or a file.
type plainEditor struct{ sc *bufio.Scanner }

func (e plainEditor) ReadLine(string, bool) (string, error) {
	if !e.sc.Scan() {
		if err := e.sc.Err(); err != nil {
			return "", err
		}
		return "", io.EOF
	}
	return e.sc.Text(), nil
}

func (plainEditor) Close() error { return nil }

// completer adapts the console's completion to readline's.
type completer struct {
	complete func(text string) (word string, candidates []string)
}

// Do returns the candidates' rest after the word being typed.
func (c completer) Do(line []rune, pos int) ([][]rune, int) {
	word, cands := c.complete(string(line[:pos]))
	n := len([]rune(word))
	var out [][]rune
	for _, cand := range cands {
		r := []rune(cand)
		if len(r) >= n && string(r[:n]) == word {
			out = append(out, r[n:])
		}
	}
	return out, n
}
