package mdelem

import (
	"bytes"
	"testing"

	"github.com/metapack/metapack/internal/guardpage"
	"github.com/metapack/metapack/staticdata"
)

// guardLengths is every length TestAppendAtGuard and TestStrAtGuard try:
// all of Append's copy cases (1-3, 4-7, 8-16, 17-32 and over 32 bytes).
const guardLengths = 72

// fill writes a pattern that no atom spells into b and returns b.
func fill(b []byte, seed int) []byte {
	for i := range b {
		b[i] = byte('a' + (i+seed)%26)
	}
	return b
}

// guardPlace puts a copy of s in r against its trailing guard (before) or
// right after its leading one.
func guardPlace(r *guardpage.Region, s []byte, before bool) []byte {
	if before {
		return r.CopyBefore(s)
	}
	return r.CopyAfter(s)
}

// TestAppendAtGuard runs every path of Append, and appendSafe, with names
// and values whose bytes end exactly at a guard page or start right after
// one, for every length to guardLengths, and with arenas that sit against
// a guard too, sized so that the copy ends at the arena's last byte (the
// slow path) or at the byte before it, the spare one the fast paths keep,
// which must stay as it was.
func TestAppendAtGuard(t *testing.T) {
	nameR, valueR := guardpage.NewRegion(t, 2*guardLengths), guardpage.NewRegion(t, 2*guardLengths)
	arenaR := guardpage.NewRegion(t, 2*guardLengths+1)
	const sentinel = 0xa5
	type appendFunc struct {
		name string
		f    func(*Batch, Field)
	}
	appends := []appendFunc{{"Append", (*Batch).Append}, {"append", (*Batch).append}}
	for n := range guardLengths + 1 {
		for _, before := range []bool{true, false} {
			name := guardPlace(nameR, fill(make([]byte, n), 3), before)
			value := guardPlace(valueR, fill(make([]byte, n), 7), before)
			wantName, wantValue := string(name), string(value)
			if a := staticdata.Lookup(name); a != nil {
				wantName = a.String()
			}
			tests := []struct {
				path  string
				f     Field
				arena int // bytes of arena, against a guard; -1 for a heap one of 0
				full  bool
			}{
				{"atom name, borrowed value, fast path", From(staticdata.KeyPath.Atom(), Borrowed(value)), n + 1, false},
				{"atom name, borrowed value, exact arena (appendResolved)", From(staticdata.KeyPath.Atom(), Borrowed(value)), n, false},
				{"atom name, borrowed value, no arena (growArena)", From(staticdata.KeyPath.Atom(), Borrowed(value)), -1, false},
				{"atom name, owned value", From(staticdata.KeyPath.Atom(), Owned(value)), 0, false},
				{"bytes name and value, borrowed", From(Borrowed(name), Borrowed(value)), 2*n + 1, false},
				{"bytes name and value, borrowed, exact arena", From(Borrowed(name), Borrowed(value)), 2 * n, false},
				{"bytes name, owned, borrowed value", From(Owned(name), Borrowed(value)), n + 1, false},
				{"bytes name, borrowed, owned value", From(Borrowed(name), Owned(value)), n + 1, false},
				{"bytes name and value, owned", From(Owned(name), Owned(value)), 0, false},
				{"full batch (appendSafe)", From(Borrowed(name), Borrowed(value)), 2 * n, true},
				{"full batch, atom name", From(staticdata.KeyPath.Atom(), Borrowed(value)), n, true},
			}
			for _, tt := range tests {
				for _, ap := range appends {
					for _, arenaBefore := range []bool{true, false} {
						b := NewBatch(1, 0)
						if tt.full {
							b = NewBatch(0, 0)
						}
						var arena []byte
						if tt.arena >= 0 {
							if arenaBefore {
								arena = arenaR.Before(tt.arena)
							} else {
								arena = arenaR.After(tt.arena)
							}
							for i := range arena {
								arena[i] = sentinel
							}
							if !tt.full {
								b.arena = arena[:0]
							}
						}
						ap.f(b, tt.f)
						f := b.At(0)
						gotName, gotValue := f.Name.String(), f.Value.String()
						if tt.f.Name.Atom() != nil {
							if gotName != ":path" || gotValue != wantValue {
								t.Fatalf("n=%d %s %s: %q: %q", n, tt.path, ap.name, gotName, gotValue)
							}
						} else if gotName != wantName || gotValue != wantValue {
							t.Fatalf("n=%d %s %s: %q: %q, want %q: %q", n, tt.path, ap.name, gotName, gotValue, wantName, wantValue)
						}
						if !tt.full {
							// Bytes of the arena past what Append took are untouched.
							for i := len(b.arena); i < len(arena) && &b.arena[:cap(b.arena)][0] == &arena[0]; i++ {
								if arena[i] != sentinel {
									t.Fatalf("n=%d %s %s: arena byte %d of %d written", n, tt.path, ap.name, i, len(arena))
								}
							}
						}
						if f.Size() != b.Size() || !f.Value.EqualString(wantValue) || !bytes.Equal(f.Value.UnsafeBytes(), value) {
							t.Fatalf("n=%d %s %s: size %d/%d", n, tt.path, ap.name, f.Size(), b.Size())
						}
					}
				}
			}
		}
	}
}

// TestStrAtGuard runs Str's readers (Bytes, UnsafeString, String, Equal,
// EqualString), BorrowString, IsPseudo, and Batch.GetBytes and GetString,
// on bytes that end exactly at a guard page or start right after one, for
// every length to guardLengths.
func TestStrAtGuard(t *testing.T) {
	r1, r2 := guardpage.NewRegion(t, guardLengths), guardpage.NewRegion(t, guardLengths)
	for n := range guardLengths + 1 {
		for _, before := range []bool{true, false} {
			want := string(fill(make([]byte, n), 5))
			g1 := guardPlace(r1, []byte(want), before)
			g2 := guardPlace(r2, []byte(want), !before)
			var gs string
			if before {
				gs = guardpage.StringBefore(t, want)
			} else {
				gs = guardpage.StringAfter(t, want)
			}
			strs := map[string]Str{
				"borrowed":     borrowedStr(g1),
				"owned":        ownedStr(g2),
				"BorrowString": From(BorrowString(gs), Owned(nil)).Name,
				"From value":   From(staticdata.KeyPath.Atom(), Borrowed(g1)).Value,
				"StrOf":        StrOf(Borrowed(g1)),
				"FromStrings":  FromStrings(gs, gs).Value,
			}
			for name, s := range strs {
				if s.Len() != n || string(s.UnsafeBytes()) != want || s.UnsafeString() != want || s.String() != want {
					t.Fatalf("n=%d %s: %q", n, name, s.String())
				}
				if !s.EqualString(want) || !s.EqualString(gs) || !s.Equal(strs["owned"]) || !strs["borrowed"].Equal(s) {
					t.Fatalf("n=%d %s: not equal to itself", n, name)
				}
				if n > 0 && (s.EqualString(want[:n-1]) || s.Equal(borrowedStr(g1[1:]))) {
					t.Fatalf("n=%d %s: equal to a shorter string", n, name)
				}
				if (Field{Name: s}).IsPseudo() {
					t.Fatalf("n=%d %s: pseudo", n, name)
				}
			}
			b := NewBatch(2, 0)
			b.Append(From(Owned(g2), Borrowed(g1)))
			b.Append(From(Borrowed(g1), Owned(g2)))
			for _, find := range []func() (Field, bool){
				func() (Field, bool) { return b.GetBytes(g1) },
				func() (Field, bool) { return b.GetBytes(g2) },
				func() (Field, bool) { return b.GetString(gs) },
			} {
				f, ok := find()
				if !ok || !f.Name.EqualString(want) || !f.Value.EqualString(want) {
					t.Fatalf("n=%d: lookup = %v, %v", n, f, ok)
				}
			}
		}
	}
}
