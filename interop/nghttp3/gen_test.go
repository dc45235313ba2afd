//go:build nghttp3

package nghttp3

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// genLists returns n deterministic header lists from seed, shaped like
// HTTP traffic: pseudo-headers and static-table fields, names and values
// that come back (so that encoders insert and reference them), fresh
// values, values long enough to evict from small tables, empty values,
// bytes outside ASCII, sensitive fields, repeated lists and empty ones.
func genLists(seed uint64, n int) [][]Field {
	r := rand.New(rand.NewPCG(seed, 0x9204))
	var out [][]Field
	for i := range n {
		if i > 0 && r.IntN(8) == 0 {
			out = append(out, out[r.IntN(i)])
			continue
		}
		if r.IntN(30) == 0 {
			out = append(out, nil)
			continue
		}
		var l []Field
		if r.IntN(4) != 0 {
			l = append(l,
				Field{Name: ":method", Value: []string{"GET", "POST", "PUT", "PATCH"}[r.IntN(4)]},
				Field{Name: ":scheme", Value: "https"},
				Field{Name: ":authority", Value: "host" + strconv.Itoa(r.IntN(3)) + ".example"},
				Field{Name: ":path", Value: "/p/" + strconv.Itoa(r.IntN(20))},
			)
		} else {
			l = append(l, Field{Name: ":status", Value: []string{"200", "204", "404", "503", "299"}[r.IntN(5)]})
		}
		for range r.IntN(10) {
			l = append(l, genField(r))
		}
		out = append(out, l)
	}
	return out
}

func genField(r *rand.Rand) Field {
	switch r.IntN(12) {
	case 0:
		return Field{Name: "user-agent", Value: "agent/" + strconv.Itoa(r.IntN(3))}
	case 1:
		return Field{Name: "accept-encoding", Value: "gzip, deflate, br"}
	case 2:
		return Field{Name: "content-type", Value: []string{"application/json", "application/grpc", "text/x-other"}[r.IntN(3)]}
	case 3:
		return Field{Name: "cookie", Value: strings.Repeat("c"+strconv.Itoa(r.IntN(4)), 1+r.IntN(12))}
	case 4:
		return Field{Name: "authorization", Value: "Bearer " + strconv.Itoa(r.IntN(3)), Sensitive: r.IntN(2) == 0}
	case 5:
		return Field{Name: "x-long", Value: strings.Repeat("long"+strconv.Itoa(r.IntN(3)), 20+r.IntN(60))}
	case 6:
		return Field{Name: "x-fresh-" + strconv.Itoa(r.IntN(1000)), Value: strconv.FormatUint(r.Uint64(), 36)}
	case 7:
		return Field{Name: "x-empty", Value: ""}
	case 8:
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return Field{Name: "x-bytes", Value: string(b)}
	case 9:
		return Field{Name: "x-secret", Value: "s" + strconv.Itoa(r.IntN(3)), Sensitive: true}
	default:
		return Field{Name: "x-k" + strconv.Itoa(r.IntN(6)), Value: "v" + strconv.Itoa(r.IntN(8)), Sensitive: r.IntN(20) == 0}
	}
}
