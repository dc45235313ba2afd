package hpack

import (
	"sync"
	"sync/atomic"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/internal/tier"
	sd "github.com/metapack/metapack/staticdata"
)

// The registered strings: names, and values of interned keys, that every
// Decoder resolves to atoms besides the static tier, such as an
// application's own metadata keys. Only the application adds to them,
// with RegisterNames; a decoder only looks them up, so nothing a peer
// sends changes what any decoder interns.

// registryLimits bound the registered strings.
var registryLimits = intern.Limits{MaxEntries: 4096, MaxBytes: 1 << 20, MaxLen: 1024}

// registry holds the registered strings, or nil before the first
// RegisterNames: decoders then look up the static tier alone.
var registry atomic.Pointer[intern.Table]

var registryOnce sync.Once

// RegisterNames registers strings that every Decoder interns whenever a
// peer sends them as a name, or as the value of a key whose values are
// interned (SetInternedValues): typically an application's own metadata
// keys, declared at startup. Static-table and gRPC well-known strings
// need no registering. It returns how many of names are registered now,
// those given before included; the registry holds up to 4096 strings of
// up to 1 KiB each (1 MiB in all), and ignores the rest. It is safe for
// concurrent use, and with Decodes running.
func RegisterNames(names ...string) int {
	registryOnce.Do(func() { registry.Store(intern.New(registryLimits)) })
	t := registry.Load()
	n := 0
	for _, s := range names {
		if _, ok := intern.Make(t, s); ok {
			n++
		}
	}
	return n
}

// lookupKnown returns the atom of b in the static tier or among the
// registered strings, or nil.
func lookupKnown(b []byte) *sd.Atom {
	if t := registry.Load(); t != nil {
		h, _ := intern.Lookup(t, b)
		return h.Atom()
	}
	if !tier.MayBeAtom(b) {
		return nil
	}
	return sd.Lookup(b)
}
