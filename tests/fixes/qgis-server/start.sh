#!/bin/sh
# QGIS Server's own development server (qgis_mapserver, Debian qgis-server) on
# 127.0.0.1:{{PORT}} over geo.qgs; its OGC API Features is at /wfs3. The
# GeoPackage the project reads is made here from the test data's GeoJSON.
# tests/integration/geo_servers.py and tests/integration/test_fixes.py fill in
# DIR, PORT and DATA.
set -e
cd "{{DIR}}"
ogr2ogr -f GPKG geo.gpkg "{{DATA}}/geo/gebouwen.geojson" -nln gebouwen -a_srs EPSG:28992
ogr2ogr -f GPKG -update geo.gpkg "{{DATA}}/geo/adressen.geojson" -nln adressen
# No display, its profile and runtime files in this directory, warnings only.
export QT_QPA_PLATFORM=offscreen HOME="{{DIR}}" XDG_RUNTIME_DIR="{{DIR}}" QGIS_SERVER_LOG_LEVEL=1
exec qgis_mapserver -p "{{DIR}}/geo.qgs" 127.0.0.1:{{PORT}}
