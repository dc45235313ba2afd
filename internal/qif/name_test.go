package qif

import (
	"strings"
	"testing"
)

func TestParseName(t *testing.T) {
	tests := []struct {
		in      string
		wantQIF string
		want    Config
		wantErr string
	}{
		{"fb-req.out.4096.100.1", "fb-req", Config{4096, 100, true}, ""},
		{"netbsd-hq.out.0.0.0", "netbsd-hq", Config{0, 0, false}, ""},
		{"a/b/examples.out.220.100.1", "examples", Config{220, 100, true}, ""},
		{"x.out.y.out.1.2.0", "x.out.y", Config{1, 2, false}, ""},
		{"draft-examples.out", "", Config{}, "want <qif>.out.<capacity>.<blocked>.<ack>"},
		{"err1", "", Config{}, "want <qif>.out"},
		{".out.1.2.0", "", Config{}, "want <qif>.out"},
		{"q.out.1.2", "", Config{}, "want capacity.blocked.ack"},
		{"q.out.1.2.3.4", "", Config{}, "want capacity.blocked.ack"},
		{"q.out.-1.2.0", "", Config{}, `capacity "-1" is not a number`},
		{"q.out.1.x.0", "", Config{}, `max blocked streams "x" is not a number`},
		{"q.out.1.2.2", "", Config{}, `ack mode "2" is not 0 or 1`},
		{"q.out.1.2.", "", Config{}, `ack mode "" is not 0 or 1`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			q, c, err := ParseName(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseName(%q) error %v, want one containing %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if q != tt.wantQIF || c != tt.want {
				t.Errorf("ParseName(%q) = %q, %+v, want %q, %+v", tt.in, q, c, tt.wantQIF, tt.want)
			}
			if got, err := ParseConfig(c.String()); err != nil || got != c {
				t.Errorf("ParseConfig(%q) = %+v, %v, want %+v", c.String(), got, err, c)
			}
		})
	}
}

func TestConfigString(t *testing.T) {
	tests := []struct {
		c    Config
		want string
	}{
		{Config{}, "0.0.0"},
		{Config{4096, 100, true}, "4096.100.1"},
		{Config{256, 0, false}, "256.0.0"},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.c, got, tt.want)
		}
	}
}
