// A Go net/http API under /v1 on a ServeMux (the standard library only), as
// the tutorials write one: /v1/items/{id} is a subtree handler that calls
// http.NotFound for an id it does not have, and a path no pattern matches
// gets ServeMux's own 404; both are text/plain "404 page not found" (EH-2
// fails). /v1/items refuses every method but GET with 405 and no Allow
// header, HEAD included (HM-1 and HM-3 fail).
// tests/integration/test_fixes.py replaces each line marked "fix:<check>"
// with probes/fixes/go-net-http.yaml's text for that check.
package main

import (
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"
)

// fix:EH-2

// The 405 as an RFC 9457 problem (so EH-2 judges only the 404s).
func methodNotAllowed(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(http.StatusMethodNotAllowed)
	fmt.Fprint(w, `{"type": "about:blank", "title": "Method Not Allowed", "status": 405, "detail": "The resource does not support this method."}`)
}

func main() {
	doc, err := os.ReadFile("openapi.json")
	if err != nil {
		panic(err)
	}
	addr := "127.0.0.1:" + os.Args[1]
	mux := http.NewServeMux()
	mux.HandleFunc("/v1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("API-Version", "1.0.0")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"items": "/v1/items"}`)
	})
	mux.HandleFunc("/v1/items", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet { methodNotAllowed(w); return } // fix:HM-1 fix:HM-3
		w.Header().Set("API-Version", "1.0.0")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"id": "1"}]`)
	})
	mux.HandleFunc("/v1/items/", func(w http.ResponseWriter, r *http.Request) {
		if id := strings.TrimPrefix(r.URL.Path, "/v1/items/"); id != "1" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("API-Version", "1.0.0")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id": "1"}`)
	})
	mux.HandleFunc("/v1/openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("API-Version", "1.0.0")
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Write(doc)
	})
	log.Fatal(http.ListenAndServe(addr, mux)) // fix:EH-2 fix:TS-1
}
