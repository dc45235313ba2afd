package qif

import (
	"fmt"
	"strconv"
	"strings"
)

// Config is what an encoder's output file was made with: the decoder's
// SETTINGS_QPACK_MAX_TABLE_CAPACITY and SETTINGS_QPACK_BLOCKED_STREAMS, and
// whether the encoder received acknowledgements (ack mode 1) or not (0).
type Config struct {
	Capacity uint64
	Blocked  uint64
	Ack      bool
}

// String returns c as the file names write it: capacity.blocked.ack, as
// "4096.100.1".
func (c Config) String() string {
	ack := 0
	if c.Ack {
		ack = 1
	}
	return fmt.Sprintf("%d.%d.%d", c.Capacity, c.Blocked, ack)
}

// ParseConfig parses capacity.blocked.ack, as Config.String writes it.
func ParseConfig(s string) (Config, error) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return Config{}, fmt.Errorf("config %q: want capacity.blocked.ack", s)
	}
	var c Config
	var err error
	if c.Capacity, err = strconv.ParseUint(parts[0], 10, 64); err != nil {
		return Config{}, fmt.Errorf("config %q: capacity %q is not a number", s, parts[0])
	}
	if c.Blocked, err = strconv.ParseUint(parts[1], 10, 64); err != nil {
		return Config{}, fmt.Errorf("config %q: max blocked streams %q is not a number", s, parts[1])
	}
	switch parts[2] {
	case "0":
	case "1":
		c.Ack = true
	default:
		return Config{}, fmt.Errorf("config %q: ack mode %q is not 0 or 1", s, parts[2])
	}
	return c, nil
}

// ParseName parses the name of an encoder's output file,
// <qif>.out.<capacity>.<blocked>.<ack> (as "fb-req.out.4096.100.1"), into
// the QIF's name ("fb-req") and the Config. A directory before the name is
// ignored.
func ParseName(name string) (qif string, c Config, err error) {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	i := strings.LastIndex(name, ".out.")
	if i <= 0 {
		return "", Config{}, fmt.Errorf("file name %q: want <qif>.out.<capacity>.<blocked>.<ack>", name)
	}
	c, err = ParseConfig(name[i+len(".out."):])
	if err != nil {
		return "", Config{}, fmt.Errorf("file name %q: %w", name, err)
	}
	return name[:i], c, nil
}
