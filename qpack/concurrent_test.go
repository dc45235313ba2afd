package qpack

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// TestConcurrentConnection runs a connection's QPACK work as an HTTP/3
// stack would, under -race: one goroutine feeds the encoder stream in
// pieces, one per request stream decodes its section (waiting when it is
// blocked), one relays the decoder stream back to the Encoder, and
// several goroutines encode new sections meanwhile.
func TestConcurrentConnection(t *testing.T) {
	const streams = 64
	enc := NewEncoder()
	enc.SetPeerSettings(4096, streams)
	dec := NewDecoder(4096, streams)
	lists := make([]*mdelem.Batch, streams)
	sections := make([][]byte, streams)
	var es []byte
	for i := range streams {
		b := mdelem.NewBatch(4, 128)
		b.Append(mdelem.From(mdelem.BorrowString(":path"), mdelem.BorrowString(fmt.Sprintf("/item/%d", i%7))))
		b.Append(mdelem.From(mdelem.BorrowString("x-user"), mdelem.BorrowString(fmt.Sprintf("user-%d", i%5))))
		lists[i] = b
		sections[i], es = enc.AppendSection(nil, es, uint64(4*i), b)
	}

	var wg sync.WaitGroup
	wake := make([]chan struct{}, streams)
	for i := range wake {
		wake[i] = make(chan struct{}, 1)
	}
	dispatch := func() {
		for _, s := range dec.AppendUnblocked(nil) {
			wake[s/4] <- struct{}{}
		}
	}
	errs := make(chan error, 4*streams)
	for i := range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := mdelem.NewBatch(4, 128)
			for {
				out.Reset()
				err := dec.Decode(out, uint64(4*i), sections[i])
				if err == ErrBlocked {
					<-wake[i]
					continue
				}
				if err != nil {
					errs <- err
					return
				}
				if fieldsOf(out) != fieldsOf(lists[i]) {
					errs <- fmt.Errorf("stream %d: %q, want %q", 4*i, fieldsOf(out), fieldsOf(lists[i]))
				}
				return
			}
		}()
	}
	wg.Add(1)
	go func() { // the encoder stream, a few bytes at a time
		defer wg.Done()
		for len(es) > 0 {
			n := min(len(es), 7)
			if err := dec.WriteEncoderStream(es[:n]); err != nil {
				errs <- err
				return
			}
			es = es[n:]
			dispatch()
			runtime.Gosched()
		}
	}()
	var encMu sync.Mutex // orders AppendSection with its encoder-stream bytes
	var more []byte
	for g := range 4 {
		wg.Add(1)
		go func() { // more sections, encoded meanwhile
			defer wg.Done()
			b := mdelem.NewBatch(4, 128)
			for k := range 16 {
				b.Reset()
				b.Append(mdelem.From(mdelem.BorrowString("x-user"), mdelem.BorrowString(fmt.Sprintf("user-%d", k%5))))
				encMu.Lock()
				_, more = enc.AppendSection(nil, more, uint64(4*(streams+16*g+k)), b)
				encMu.Unlock()
			}
		}()
	}
	done := make(chan struct{})
	relay := make(chan struct{})
	go func() { // the decoder stream, relayed to the encoder
		defer close(relay)
		for {
			if err := enc.WriteDecoderStream(dec.AppendDecoderStream(nil)); err != nil {
				errs <- err
				return
			}
			select {
			case <-done:
				return
			default:
				runtime.Gosched()
			}
		}
	}()
	wg.Wait()
	close(done)
	<-relay
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := enc.WriteDecoderStream(dec.AppendDecoderStream(nil)); err != nil {
		t.Error(err)
	}
}
