"""The back office's name and home page: TripDesk's, with what waits for a decision on top."""

from django.contrib import admin

from trips.web.twofactor import PasswordAndCodeForm

admin.site.site_header = "TripDesk back office"
admin.site.site_title = "TripDesk back office"
admin.site.index_title = "Home"
admin.site.index_template = "admin/trips/index.html"
# The left-hand model list repeats the home page and costs the lists their triage columns at 1280 px.
admin.site.enable_nav_sidebar = False
# Signed out, an approval email's link lands here: password and code in one submit, then the request.
admin.site.login_form = PasswordAndCodeForm
admin.site.login_template = "admin/trips/login.html"
