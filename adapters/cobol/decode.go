package cobol

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Decode renders the bytes of f as a COBOL programmer reads them:
// numbers as numbers (-7, 1.25), alphanumeric and group items as quoted
// text. data shorter than f.Size is decoded as far as it goes; bytes that
// do not fit the item's kind are shown, never a panic.
func Decode(f *Field, data []byte) string {
	if len(data) > f.Size {
		data = data[:f.Size]
	}
	if !f.Numeric || f.Usage == Group {
		return quote(data)
	}
	switch f.Usage {
	case Packed:
		return decodePacked(f, data)
	case Binary, Native:
		return decodeBinary(f, data)
	}
	return decodeDisplay(f, data)
}

// quote shows text in double quotes, escaping what is not printable.
func quote(data []byte) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range data {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "\\x%02x", c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// decodeDisplay reads zoned decimal: one ASCII digit per byte, the sign
// of a signed item overpunched on the last byte: GnuCOBOL's 'p'..'y' for -0..-9,
// or the EBCDIC-style '{' 'A'..'I' (+) and '}' 'J'..'R' (-).
func decodeDisplay(f *Field, data []byte) string {
	digits := make([]byte, 0, len(data))
	neg := false
	for i, c := range data {
		last := f.Signed && i == len(data)-1
		switch {
		case c >= '0' && c <= '9':
			digits = append(digits, c)
		case last && c >= 'p' && c <= 'y':
			digits = append(digits, '0'+c-'p')
			neg = true
		case last && c == '{':
			digits = append(digits, '0')
		case last && c >= 'A' && c <= 'I':
			digits = append(digits, '1'+c-'A')
		case last && c == '}':
			digits = append(digits, '0')
			neg = true
		case last && c >= 'J' && c <= 'R':
			digits = append(digits, '1'+c-'J')
			neg = true
		case c == ' ':
			digits = append(digits, '0')
		default:
			return "invalid DISPLAY number " + quote(data)
		}
	}
	return formatNumber(string(digits), f.Scale, neg)
}

// decodePacked reads COMP-3: two digits per byte, the last nibble the
// sign (0xD negative, 0xC/0xF/others positive).
func decodePacked(f *Field, data []byte) string {
	if len(data) == 0 {
		return "0"
	}
	digits := make([]byte, 0, 2*len(data))
	for i, c := range data {
		hi, lo := c>>4, c&0x0f
		if hi > 9 {
			return fmt.Sprintf("invalid COMP-3 number %X", data)
		}
		digits = append(digits, '0'+hi)
		if i < len(data)-1 {
			if lo > 9 {
				return fmt.Sprintf("invalid COMP-3 number %X", data)
			}
			digits = append(digits, '0'+lo)
		}
	}
	neg := data[len(data)-1]&0x0f == 0x0d
	return formatNumber(string(digits), f.Scale, neg)
}

// decodeBinary reads COMP/BINARY (big-endian) or COMP-5 (little-endian)
// integers, two's complement when signed.
func decodeBinary(f *Field, data []byte) string {
	if len(data) == 0 {
		return "0"
	}
	be := make([]byte, len(data))
	copy(be, data)
	if f.Usage == Native {
		for i, j := 0, len(be)-1; i < j; i, j = i+1, j-1 {
			be[i], be[j] = be[j], be[i]
		}
	}
	n := new(big.Int).SetBytes(be)
	neg := false
	if f.Signed && be[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(be))))
		neg = true
		n.Neg(n)
	}
	return formatNumber(n.String(), f.Scale, neg)
}

// formatNumber places the decimal point scale digits from the right,
// drops leading zeros and adds the sign: ("00125", 2, true) → "-1.25".
func formatNumber(digits string, scale int, neg bool) string {
	if scale > 0 {
		for len(digits) <= scale {
			digits = "0" + digits
		}
		digits = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	intPart, frac, hasFrac := strings.Cut(digits, ".")
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	out := intPart
	if hasFrac {
		out += "." + frac
	}
	if neg && strings.Trim(out, "0.") != "" {
		out = "-" + out
	}
	return out
}

// Type describes f in the variables view: "PIC S9(5) COMP-3".
func Type(f *Field) string {
	if f.Usage == Group {
		return "GROUP (" + strconv.Itoa(f.Size) + " bytes)"
	}
	return "PIC " + f.Picture
}
