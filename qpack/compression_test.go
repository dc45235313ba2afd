package qpack_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/metapack/metapack/internal/qif"
)

// compressionQIFs are the QIFs that compression is measured on, as in
// compare-qpack.sh: 571,967 bytes of names and values in all.
var compressionQIFs = []string{"fb-req", "fb-resp", "netbsd"}

// TestQIFCompression encodes fb-req, fb-resp and netbsd at five settings
// and checks the wire bytes (sections and encoder stream) over the names'
// and values' bytes against a target for each; it logs the ratio beside
// those of ls-qpack's and nghttp3's files in the corpus (encoded in 2019).
func TestQIFCompression(t *testing.T) {
	root := qif.Path(t, "encoded", "qpack-05")
	sets := map[string][][]qif.Field{}
	raw := 0
	for _, name := range compressionQIFs {
		sets[name] = readQIF(t, name)
		raw += qif.RawBytes(sets[name])
	}
	if raw != 571967 {
		t.Fatalf("%d bytes of names and values, want 571,967", raw)
	}
	// target is issue #33's; ceiling is what this encoder reaches, plus
	// 0.1%, so that a change that costs compression fails. Two targets
	// are not reached yet (the test logs them); the ceilings hold the
	// ground gained.
	tests := []struct {
		cfg             string
		target, ceiling float64 // wire bytes per name and value byte
	}{
		{"4096.100.1", 0.170, 0.1831},
		{"4096.0.1", 0.190, 0.2090},
		{"4096.100.0", 0.500, 0.4583},
		{"256.100.1", 0.550, 0.5395},
		{"0.0.0", 0.628, 0.628},
	}
	for _, tt := range tests {
		t.Run("cfg="+tt.cfg, func(t *testing.T) {
			cfg := mustConfig(t, tt.cfg)
			wire := 0
			peers := map[string]int{}    // the peers' wire bytes
			missing := map[string]bool{} // peers without a file for one QIF
			for _, name := range compressionQIFs {
				wire += qif.WireBytes(encodeRecords(t, sets[name], cfg))
				for _, peer := range []string{"ls-qpack", "nghttp3"} {
					f := filepath.Join(root, peer, name+".out."+tt.cfg)
					if _, err := os.Stat(f); err != nil {
						missing[peer] = true
						continue
					}
					peers[peer] += qif.WireBytes(readRecords(t, f))
				}
			}
			ratio := float64(wire) / float64(raw)
			line := ""
			for _, peer := range []string{"ls-qpack", "nghttp3"} {
				if !missing[peer] {
					line += "  " + peer + " " + percent(float64(peers[peer])/float64(raw))
				}
			}
			met := "met"
			if ratio > tt.target {
				met = "NOT MET"
			}
			t.Logf("cfg %s: metapack %d bytes, %s (issue target %s: %s);  corpus:%s", tt.cfg, wire, percent(ratio), percent(tt.target), met, line)
			if ratio > tt.ceiling {
				t.Errorf("cfg %s: %d wire bytes, %s of %d, over this encoder's ceiling %s", tt.cfg, wire, percent(ratio), raw, percent(tt.ceiling))
			}
		})
	}
}

// percent formats r as a percentage with one decimal.
func percent(r float64) string {
	return strconv.FormatFloat(100*r, 'f', 2, 64) + "%"
}
