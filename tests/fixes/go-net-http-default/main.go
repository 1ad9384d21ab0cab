// A Go net/http API under /v1 as Go's "Writing Web Applications" writes one:
// named handlers registered with http.HandleFunc on the DefaultServeMux, the
// server started with http.ListenAndServe(addr, nil). /v1/items/{id} calls
// http.NotFound for an id it does not have, a path no pattern matches gets
// ServeMux's own 404, and /v1/items refuses every method but GET with
// http.Error's 405 and no Allow header, HEAD included: all text/plain (EH-2,
// HM-1 and HM-3 fail). tests/integration/test_fixes.py replaces each line
// marked "fix:<check>" with probes/fixes/go-net-http.yaml's text for that
// check, the change it offers for a server started with nil (stack.json).
package main

import (
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"
)

// fix:EH-2

func index(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("API-Version", "1.0.0")
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"items": "/v1/items"}`)
}

func items(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet { http.Error(w, "method not allowed", http.StatusMethodNotAllowed); return } // fix:HM-1 fix:HM-3
	w.Header().Set("API-Version", "1.0.0")
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `[{"id": "1"}]`)
}

func item(w http.ResponseWriter, r *http.Request) {
	if id := strings.TrimPrefix(r.URL.Path, "/v1/items/"); id != "1" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("API-Version", "1.0.0")
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"id": "1"}`)
}

func main() {
	doc, err := os.ReadFile("openapi.json")
	if err != nil {
		panic(err)
	}
	addr := "127.0.0.1:" + os.Args[1]
	http.HandleFunc("/v1", index)
	http.HandleFunc("/v1/items", items)
	http.HandleFunc("/v1/items/", item)
	http.HandleFunc("/v1/openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("API-Version", "1.0.0")
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Write(doc)
	})
	log.Fatal(http.ListenAndServe(addr, nil)) // fix:EH-2 fix:TS-1
}
