package proc

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Core is what a Linux core file's ELF notes say of the process that
// dumped it. Fields the notes do not hold are zero: nothing is guessed.
type Core struct {
	PID     int    `json:"pid,omitempty"`     // the process's pid when it dumped (NT_PRSTATUS)
	Signal  int    `json:"signal,omitempty"`  // the signal that killed it (NT_SIGINFO, else NT_PRSTATUS)
	Command string `json:"command,omitempty"` // its name, at most 15 bytes (NT_PRPSINFO)
	Args    string `json:"args,omitempty"`    // the start of its command line, at most 80 bytes (NT_PRPSINFO)
	Exe     string `json:"exe,omitempty"`     // the executable's path: the first file mapped from its start (NT_FILE)
	// BuildID is the executable's build id, read from its headers as
	// the core holds them ("" when the core did not dump them).
	BuildID BuildID `json:"buildId,omitzero"`
}

// BuildID is an ELF file's build id: the GNU one (NT_GNU_BUILD_ID, hex)
// and Go's (the .note.go.buildid string), either of which may be absent.
type BuildID struct {
	GNU string `json:"gnu,omitempty"`
	Go  string `json:"go,omitempty"`
}

// IsZero reports whether neither id is known.
func (b BuildID) IsZero() bool { return b.GNU == "" && b.Go == "" }

// Differs reports whether b and o are the ids of different builds: an id
// both know differs, or they know ids of different kinds only (one
// build's notes are the same wherever they are read). Unknown ids never
// differ.
func (b BuildID) Differs(o BuildID) bool {
	if b.IsZero() || o.IsZero() {
		return false
	}
	gnu, goID := b.GNU != "" && o.GNU != "", b.Go != "" && o.Go != ""
	if !gnu && !goID {
		return true
	}
	return (gnu && b.GNU != o.GNU) || (goID && b.Go != o.Go)
}

// String is the GNU id, else Go's.
func (b BuildID) String() string {
	if b.GNU != "" {
		return b.GNU
	}
	return b.Go
}

// SignalName names a signal ("SIGSEGV"), or "signal N".
func SignalName(sig int) string {
	if n := signalNames[sig]; n != "" {
		return n
	}
	return fmt.Sprintf("signal %d", sig)
}

var signalNames = map[int]string{1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT",
	7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE",
	14: "SIGALRM", 15: "SIGTERM", 16: "SIGSTKFLT", 24: "SIGXCPU", 25: "SIGXFSZ", 31: "SIGSYS"}

// ErrNotCore says a file is not an ELF core file.
var ErrNotCore = errors.New("not an ELF core file")

// Note types of a core file (linux/elf.h).
const (
	ntPRStatus = 1
	ntPRPSInfo = 3
	ntSigInfo  = 0x53494749
	ntFile     = 0x46494c45
	ntGNUBuild = 3 // in a gnuOwner note
	ntGoBuild  = 4 // in a goOwner note
)

// The owners of the build-id notes: the GNU toolchain's and Go's linker's
// (an ELF note's name field, no language decision).
const (
	gnuOwner = "GNU"
	goOwner  = "Go"
)

// maxNotes bounds the notes read from one file: a process with many
// mappings has a large NT_FILE, never this large.
const maxNotes = 16 << 20

// ReadCore reads the notes of the core file at path.
func ReadCore(path string) (*Core, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ef, err := elf.NewFile(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", path, ErrNotCore, err)
	}
	if ef.Type != elf.ET_CORE {
		return nil, fmt.Errorf("%s: %w: an ELF file of type %s", path, ErrNotCore, ef.Type)
	}
	c := &Core{}
	var exe fileMapping
	for _, p := range ef.Progs {
		if p.Type != elf.PT_NOTE {
			continue
		}
		b, err := readSegment(p)
		if err != nil {
			return nil, fmt.Errorf("%s: the notes: %w", path, err)
		}
		if m := parseCoreNotes(b, ef.ByteOrder, ef.Class, c); m.path != "" && exe.path == "" {
			exe = m
		}
	}
	c.Exe = exe.path
	if exe.path != "" {
		c.BuildID = mappedBuildID(ef, exe.start)
	}
	return c, nil
}

// FileBuildID reads the build ids of the ELF file at path.
func FileBuildID(path string) (BuildID, error) {
	ef, err := elf.Open(path)
	if err != nil {
		return BuildID{}, err
	}
	defer ef.Close()
	var id BuildID
	for _, p := range ef.Progs {
		if p.Type != elf.PT_NOTE {
			continue
		}
		if b, err := readSegment(p); err == nil {
			buildNotes(b, ef.ByteOrder, &id)
		}
	}
	return id, nil
}

func readSegment(p *elf.Prog) ([]byte, error) {
	if p.Filesz > maxNotes {
		return nil, fmt.Errorf("a note segment of %d bytes", p.Filesz)
	}
	return io.ReadAll(io.NewSectionReader(p, 0, int64(p.Filesz)))
}

// fileMapping is the first NT_FILE entry that maps a file from its start.
type fileMapping struct {
	path  string
	start uint64
}

// eachNote calls f with each note of b (name without its NUL, type,
// description), until the notes end or one is malformed.
func eachNote(b []byte, order binary.ByteOrder, f func(name string, typ uint32, desc []byte)) {
	for len(b) >= 12 {
		namesz, descsz, typ := order.Uint32(b), order.Uint32(b[4:]), order.Uint32(b[8:])
		b = b[12:]
		nameEnd, descStart := uint64(namesz), align4(uint64(namesz))
		descEnd := descStart + uint64(descsz)
		if descEnd > uint64(len(b)) {
			return
		}
		name := strings.TrimRight(string(b[:nameEnd]), "\x00")
		f(name, typ, b[descStart:descEnd])
		next := align4(descEnd)
		if next > uint64(len(b)) {
			return
		}
		b = b[next:]
	}
}

func align4(n uint64) uint64 { return (n + 3) &^ 3 }

// parseCoreNotes fills c from a core's notes and returns its first file
// mapping at offset 0. Only 64-bit layouts are read: a 32-bit core gives
// what does not depend on them (the mapped files).
func parseCoreNotes(b []byte, order binary.ByteOrder, class elf.Class, c *Core) fileMapping {
	var first fileMapping
	wide := class == elf.ELFCLASS64
	eachNote(b, order, func(name string, typ uint32, d []byte) {
		if name != "CORE" && name != "LINUX" {
			return
		}
		switch {
		case typ == ntPRStatus && wide && len(d) >= 36:
			if c.Signal == 0 {
				c.Signal = int(int16(order.Uint16(d[12:])))
			}
			if c.PID == 0 {
				c.PID = int(int32(order.Uint32(d[32:])))
			}
		case typ == ntSigInfo && len(d) >= 4:
			if sig := int(int32(order.Uint32(d))); sig > 0 {
				c.Signal = sig
			}
		case typ == ntPRPSInfo && wide && len(d) >= 136:
			c.Command = cString(d[40:56])
			c.Args = strings.TrimSpace(cString(d[56:136]))
		case typ == ntFile && first.path == "":
			first = firstFileMapping(d, order, wide)
		}
	})
	return first
}

// firstFileMapping reads NT_FILE: count and page size, count (start,
// end, page offset) triples, then count NUL-terminated paths.
func firstFileMapping(d []byte, order binary.ByteOrder, wide bool) fileMapping {
	word := uint64(4)
	read := func(b []byte) uint64 { return uint64(order.Uint32(b)) }
	if wide {
		word = 8
		read = order.Uint64
	}
	if uint64(len(d)) < 2*word {
		return fileMapping{}
	}
	count := read(d)
	table := 2 * word
	if count == 0 || count > (uint64(len(d))-table)/(3*word) {
		return fileMapping{}
	}
	names := bytes.Split(d[table+count*3*word:], []byte{0})
	if uint64(len(names)) < count {
		return fileMapping{}
	}
	for i := uint64(0); i < count; i++ {
		e := d[table+i*3*word:]
		if read(e[2*word:]) == 0 && len(names[i]) > 0 {
			return fileMapping{path: string(names[i]), start: read(e)}
		}
	}
	return fileMapping{}
}

func cString(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// mappedBuildID reads the build ids of the ELF file mapped at start from
// the core's copy of its first page (Linux dumps the first page of each
// ELF mapping), where its program headers and notes usually are.
func mappedBuildID(core *elf.File, start uint64) BuildID {
	const page = 4096
	for _, p := range core.Progs {
		if p.Type != elf.PT_LOAD || start < p.Vaddr || start >= p.Vaddr+p.Filesz {
			continue
		}
		n := min(uint64(page), p.Vaddr+p.Filesz-start)
		head := make([]byte, n)
		if _, err := p.ReadAt(head, int64(start-p.Vaddr)); err != nil {
			return BuildID{}
		}
		return headerBuildID(head)
	}
	return BuildID{}
}

// headerBuildID reads the build ids of an ELF file from its first bytes:
// its header, program headers and the notes they point at within head.
func headerBuildID(head []byte) BuildID {
	var id BuildID
	if len(head) < 64 || string(head[:4]) != elf.ELFMAG || elf.Class(head[4]) != elf.ELFCLASS64 {
		return id
	}
	var order binary.ByteOrder = binary.LittleEndian
	if elf.Data(head[5]) == elf.ELFDATA2MSB {
		order = binary.BigEndian
	}
	phoff, phentsize, phnum := order.Uint64(head[32:]), uint64(order.Uint16(head[54:])), uint64(order.Uint16(head[56:]))
	if phentsize < 56 {
		return id
	}
	for i := uint64(0); i < phnum; i++ {
		at := phoff + i*phentsize
		if at+56 > uint64(len(head)) {
			break
		}
		ph := head[at:]
		if elf.ProgType(order.Uint32(ph)) != elf.PT_NOTE {
			continue
		}
		off, size := order.Uint64(ph[8:]), order.Uint64(ph[32:])
		if off+size > uint64(len(head)) || off+size < off {
			continue
		}
		buildNotes(head[off:off+size], order, &id)
	}
	return id
}

// buildNotes reads the build-id notes of b into id.
func buildNotes(b []byte, order binary.ByteOrder, id *BuildID) {
	eachNote(b, order, func(name string, typ uint32, d []byte) {
		switch {
		case name == gnuOwner && typ == ntGNUBuild && len(d) > 0:
			id.GNU = hex.EncodeToString(d)
		case name == goOwner && typ == ntGoBuild && len(d) > 0:
			id.Go = string(d)
		}
	})
}
