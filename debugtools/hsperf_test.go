package debugtools

import (
	"encoding/binary"
	"testing"
)

// buildPerfData writes a little-endian hsperfdata v2 image with string
// and long entries, following the layout the JDK documents.
func buildPerfData(strs map[string]string, longs map[string]int64) []byte {
	le := binary.LittleEndian
	var entries []byte
	n := 0
	add := func(name string, typ byte, units byte, vecLen int, data []byte) {
		nameOff := perfEntryHeader
		dataOff := nameOff + len(name) + 1
		for dataOff%8 != 0 {
			dataOff++
		}
		length := dataOff + len(data)
		for length%8 != 0 {
			length++
		}
		e := make([]byte, length)
		le.PutUint32(e[0:], uint32(length))
		le.PutUint32(e[4:], uint32(nameOff))
		le.PutUint32(e[8:], uint32(vecLen))
		e[12] = typ
		e[14] = units
		e[15] = 1
		le.PutUint32(e[16:], uint32(dataOff))
		copy(e[nameOff:], name)
		copy(e[dataOff:], data)
		entries = append(entries, e...)
		n++
	}
	for k, v := range strs {
		buf := make([]byte, len(v)+8)
		copy(buf, v)
		add(k, 'B', 5, len(buf), buf)
	}
	for k, v := range longs {
		d := make([]byte, 8)
		le.PutUint64(d, uint64(v))
		add(k, 'J', 4, 0, d)
	}
	p := make([]byte, perfPrologueSize)
	binary.BigEndian.PutUint32(p[0:], perfMagic)
	p[4] = 1
	p[5] = 2
	p[7] = 1
	le.PutUint32(p[8:], uint32(perfPrologueSize+len(entries)))
	le.PutUint32(p[24:], perfPrologueSize)
	le.PutUint32(p[28:], uint32(n))
	return append(p, entries...)
}

func TestParsePerfDataSynthetic(t *testing.T) {
	t.Parallel()
	b := buildPerfData(map[string]string{
		"sun.rt.javaCommand":         "com.example.Main --port 1",
		"java.property.java.home":    "/usr/lib/jvm/x",
		"java.property.java.vm.name": "OpenJDK 64-Bit Server VM",
	}, map[string]int64{"sun.rt.createVmBeginTime": 42})
	pd, err := ParsePerfData(b)
	if err != nil {
		t.Fatal(err)
	}
	if pd.Strings["sun.rt.javaCommand"] != "com.example.Main --port 1" || pd.Strings["java.property.java.home"] != "/usr/lib/jvm/x" {
		t.Fatalf("strings %v", pd.Strings)
	}
	if pd.Longs["sun.rt.createVmBeginTime"] != 42 {
		t.Fatalf("longs %v", pd.Longs)
	}
	for cut := 0; cut < len(b); cut += 7 {
		_, _ = ParsePerfData(b[:cut]) // must not panic
	}
	if _, err := ParsePerfData([]byte("not perf data at all, no no no no no")); err == nil {
		t.Fatal("garbage accepted")
	}
}

func FuzzParsePerfData(f *testing.F) {
	f.Add(buildPerfData(map[string]string{"sun.rt.javaCommand": "a.B"}, map[string]int64{"x": 1}))
	f.Add([]byte{0xca, 0xfe, 0xc0, 0xc0})
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = ParsePerfData(b)
	})
}
