package hpack

import (
	"strings"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"
)

// TestEncoderIndexCredentials checks SetIndexCredentials: on, a
// credential is indexed at first sight and sent as a one-byte index
// after; off, and for fields marked Sensitive or too big for the table,
// it stays a never-indexed (or unindexed) literal on every block. Reset
// keeps the setting.
func TestEncoderIndexCredentials(t *testing.T) {
	token := "Bearer " + strings.Repeat("k", 40)
	for _, tc := range []struct {
		name, value string
		on          bool
		sensitive   bool
		indexed     bool // sent as a one-byte index after the first block
		wantSens    bool // x/net decodes the literal as Sensitive
	}{
		{"authorization", token, false, false, false, true},
		{"authorization", token, true, false, true, false},
		{"proxy-authorization", token, true, false, true, false},
		{"authorization", token, true, true, false, true},
		{"authorization", strings.Repeat("k", 3100), true, false, false, false}, // over 3/4 of the table
		{"cookie", "a=b", true, false, false, true},                             // a short cookie is no credential: still never-indexed
	} {
		t.Run(tc.name+"/"+map[bool]string{false: "off", true: "on"}[tc.on]+map[bool]string{false: "", true: "/sensitive"}[tc.sensitive], func(t *testing.T) {
			e := NewEncoder(DefaultTableSize)
			e.SetIndexCredentials(tc.on)
			dec := xhpack.NewDecoder(DefaultTableSize, nil)
			for round := range 2 {
				first := 0
				for i := range 3 {
					block := e.AppendBlock(nil, encField1(tc.name, tc.value, tc.sensitive))
					want := first
					switch {
					case i == 0:
						first, want = len(block), len(block)
					case tc.indexed:
						want = 1
					}
					if len(block) != want || len(block) < 2 && i == 0 {
						t.Errorf("round %d, sight %d: block of %d bytes, want %d", round, i, len(block), want)
					}
					fs, err := dec.DecodeFull(block)
					if err != nil || len(fs) != 1 || fs[0].Value != tc.value {
						t.Fatalf("round %d, sight %d: x/net decodes %v, %v", round, i, fs, err)
					}
					if i == 0 && fs[0].Sensitive != tc.wantSens {
						t.Errorf("round %d: Sensitive %v, want %v", round, fs[0].Sensitive, tc.wantSens)
					}
				}
				e.Reset()
				dec = xhpack.NewDecoder(DefaultTableSize, nil)
			}
		})
	}
}
