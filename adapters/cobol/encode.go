package cobol

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Encode turns a value typed by a user into the bytes of f, the inverse
// of [Decode]: a number for numeric items (rounded toward zero to the
// item's decimal places, refused when it does not fit the PICTURE), text
// for alphanumeric and group items (quoted or not; padded with spaces or
// cut to the item's size).
func Encode(f *Field, value string) ([]byte, error) {
	value = strings.TrimSpace(value)
	if !f.Numeric || f.Usage == Group {
		if uq, err := strconv.Unquote(value); err == nil {
			value = uq
		}
		out := []byte(strings.Repeat(" ", f.Size))
		copy(out, value)
		return out, nil
	}
	neg, digits, err := scaled(value, f.Scale)
	if err != nil {
		return nil, err
	}
	if neg && !f.Signed {
		return nil, fmt.Errorf("%s is unsigned (PIC %s): %s does not fit", f.Name, f.Picture, value)
	}
	switch f.Usage {
	case Packed:
		return encodePacked(f, neg, digits)
	case Binary, Native:
		return encodeBinary(f, neg, digits)
	}
	return encodeDisplay(f, neg, digits)
}

// scaled parses a decimal number and returns its sign and its digits
// with exactly scale digits after the (removed) decimal point.
func scaled(value string, scale int) (neg bool, digits string, err error) {
	s := value
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart == "" && frac == "" {
		return false, "", fmt.Errorf("%q is not a number", value)
	}
	for _, c := range intPart + frac {
		if c < '0' || c > '9' {
			return false, "", fmt.Errorf("%q is not a number", value)
		}
	}
	if len(frac) > scale {
		frac = frac[:scale]
	}
	frac += strings.Repeat("0", scale-len(frac))
	digits = strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		digits, neg = "0", false
	}
	return neg, digits, nil
}

func tooBig(f *Field, digits string) error {
	return fmt.Errorf("%s does not fit %s (PIC %s)", digits, f.Name, f.Picture)
}

func encodeDisplay(f *Field, neg bool, digits string) ([]byte, error) {
	if len(digits) > f.Size || (f.Digits > 0 && len(digits) > f.Digits) {
		return nil, tooBig(f, digits)
	}
	out := []byte(strings.Repeat("0", f.Size-len(digits)) + digits)
	if neg {
		out[len(out)-1] = 'p' + (out[len(out)-1] - '0')
	}
	return out, nil
}

func encodePacked(f *Field, neg bool, digits string) ([]byte, error) {
	nibbles := 2*f.Size - 1
	if len(digits) > nibbles || (f.Digits > 0 && len(digits) > f.Digits) {
		return nil, tooBig(f, digits)
	}
	d := strings.Repeat("0", nibbles-len(digits)) + digits
	sign := byte(0x0f)
	if f.Signed {
		sign = 0x0c
		if neg {
			sign = 0x0d
		}
	}
	out := make([]byte, f.Size)
	for i := 0; i < f.Size; i++ {
		hi := d[2*i] - '0'
		lo := sign
		if 2*i+1 < len(d) {
			lo = d[2*i+1] - '0'
		}
		out[i] = hi<<4 | lo
	}
	return out, nil
}

func encodeBinary(f *Field, neg bool, digits string) ([]byte, error) {
	if f.Size <= 0 || f.Size > 16 {
		return nil, fmt.Errorf("%s: unsupported binary size %d", f.Name, f.Size)
	}
	if f.Digits > 0 && len(digits) > f.Digits {
		return nil, tooBig(f, digits)
	}
	n, _ := new(big.Int).SetString(digits, 10)
	bits := uint(8 * f.Size)
	limit := new(big.Int).Lsh(big.NewInt(1), bits)
	if f.Signed {
		limit.Rsh(limit, 1)
	}
	if n.Cmp(limit) >= 0 && !(neg && n.Cmp(limit) == 0) {
		return nil, tooBig(f, digits)
	}
	if neg {
		n.Sub(new(big.Int).Lsh(big.NewInt(1), bits), n)
	}
	out := n.FillBytes(make([]byte, f.Size))
	if f.Usage == Native {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out, nil
}
