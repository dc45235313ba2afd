package grpcmeta

import "strconv"

// naiveDecode is the straightforward lenient percent-decoder the
// benchmarks compare DecodeMessage with: byte by byte into a new
// string, each escape parsed by strconv.
func naiveDecode(s string) string {
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				out = append(out, byte(n))
				i += 2
				continue
			}
		}
		out = append(out, s[i])
	}
	return string(out)
}
