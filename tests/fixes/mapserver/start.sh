#!/bin/sh
# MapServer 8 (Debian cgi-mapserver) as CGI behind Apache httpd on
# 127.0.0.1:{{PORT}}; its OGC API Features is at /cgi-bin/mapserv/geo/ogcapi
# (geo: the map's key in mapserver.conf). The GeoPackage the mapfile reads is
# made here from the test data's GeoJSON. tests/integration/geo_servers.py and
# tests/integration/test_fixes.py fill in DIR, PORT and DATA.
set -e
cd "{{DIR}}"
ogr2ogr -f GPKG geo.gpkg "{{DATA}}/geo/gebouwen.geojson" -nln gebouwen -a_srs EPSG:28992
ogr2ogr -f GPKG -update geo.gpkg "{{DATA}}/geo/adressen.geojson" -nln adressen
exec /usr/sbin/apache2 -f "{{DIR}}/httpd.conf" -DFOREGROUND
