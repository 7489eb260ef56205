package debugtools

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// hsperfdata layout (HotSpot perfMemory, version 2): a 32-byte prologue
// then a packed list of entries. Strings are byte vectors with units
// U_String; numbers are 8-byte longs.
const (
	perfMagic        = 0xCAFEC0C0
	perfPrologueSize = 32
	perfEntryHeader  = 20
	perfMaxEntries   = 1 << 16
)

// ErrNotPerfData is returned for bytes that are not an hsperfdata file.
var ErrNotPerfData = errors.New("debugtools: not an hsperfdata file")

// PerfData holds the counters of one hsperfdata file: strings and longs
// by name.
type PerfData struct {
	Strings map[string]string
	Longs   map[string]int64
}

// ParsePerfData decodes an hsperfdata file. It never panics on bad input:
// bounds are checked for every entry, and a malformed entry ends the
// walk with the counters read so far (a JVM may be writing the file).
func ParsePerfData(b []byte) (*PerfData, error) {
	if len(b) < perfPrologueSize || binary.BigEndian.Uint32(b[0:4]) != perfMagic {
		return nil, ErrNotPerfData
	}
	var order binary.ByteOrder = binary.BigEndian
	if b[4] == 1 {
		order = binary.LittleEndian
	}
	if major := b[5]; major != 2 {
		return nil, fmt.Errorf("%w: unsupported version %d", ErrNotPerfData, major)
	}
	entryOff := int(order.Uint32(b[24:28]))
	n := int(order.Uint32(b[28:32]))
	if n > perfMaxEntries {
		n = perfMaxEntries
	}
	pd := &PerfData{Strings: map[string]string{}, Longs: map[string]int64{}}
	off := entryOff
	for i := 0; i < n; i++ {
		if off < perfPrologueSize || off+perfEntryHeader > len(b) {
			break
		}
		e := b[off:]
		length := int(order.Uint32(e[0:4]))
		nameOff := int(order.Uint32(e[4:8]))
		vecLen := int(order.Uint32(e[8:12]))
		dataType := e[12]
		units := e[14]
		dataOff := int(order.Uint32(e[16:20]))
		if length < perfEntryHeader || length > len(e) || nameOff >= length || dataOff > length || dataOff < 0 || nameOff < 0 {
			break
		}
		entry := e[:length]
		name := entry[nameOff:]
		if z := bytes.IndexByte(name, 0); z >= 0 {
			name = name[:z]
		}
		data := entry[dataOff:]
		switch {
		case dataType == 'B' && vecLen > 0 && (units == 5 || units == 1):
			if vecLen > len(data) {
				vecLen = len(data)
			}
			s := data[:vecLen]
			if z := bytes.IndexByte(s, 0); z >= 0 {
				s = s[:z]
			}
			pd.Strings[string(name)] = string(s)
		case dataType == 'J' && vecLen == 0 && len(data) >= 8:
			pd.Longs[string(name)] = int64(order.Uint64(data[:8]))
		}
		off += length
	}
	return pd, nil
}
